/** The HTML export's formatting, placed in the message's text as the JSON export's pieces are. */
import { parse } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { htmlEntities, htmlText } from './desktop-html';

const placed = (html: string) => {
  const el = parse(`<div class="text">${html}</div>`).querySelector('.text') ?? undefined;
  const text = htmlText(el);
  return { text, entities: htmlEntities(el, text) };
};

describe('formatting of an HTML export message', () => {
  it('places bold pieces in order, a second one after the first, one inside a link within it', () => {
    const { text, entities } = placed(
      '<strong>bold</strong> then <strong>bold</strong><br><a href="https://example.com/x">see <em>this</em></a>',
    );
    expect(text).toBe('bold then bold\nsee this');
    expect(entities).toEqual([
      { type: 'bold', text: 'bold', offset: 0, length: 4 },
      { type: 'bold', text: 'bold', offset: 10, length: 4 },
      { type: 'text_link', text: 'see this', offset: 15, length: 8, url: 'https://example.com/x' },
      { type: 'italic', text: 'this', offset: 19, length: 4 },
    ]);
  });

  it('names a link showing its own address a url, and leaves links that are no web address', () => {
    const { entities } = placed(
      '<a href="https://a.example/">https://a.example/</a> <a href="" onclick="return ShowHashtag(&quot;x&quot;)">#x</a>',
    );
    expect(entities).toEqual([{ type: 'url', text: 'https://a.example/', offset: 0, length: 18 }]);
  });

  it('places an element on its own words, not on the same words earlier in plain text', () => {
    expect(placed('no means <strong>no</strong>').entities).toEqual([
      { type: 'bold', text: 'no', offset: 9, length: 2 },
    ]);
    expect(placed('see docs: <a href="https://x.example/docs">docs</a><br>  <em>docs</em>').entities).toEqual(
      [
        { type: 'text_link', text: 'docs', offset: 10, length: 4, url: 'https://x.example/docs' },
        { type: 'italic', text: 'docs', offset: 15, length: 4 },
      ],
    );
  });

  it('has none for plain text', () => {
    expect(placed('just words &amp; more').entities).toEqual([]);
  });
});
