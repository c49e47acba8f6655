/** The desktop app's JSON export entries as the archive keeps them: entities placed, call lengths kept. */
import { describe, expect, it } from 'vitest';
import { exportText, fromJsonEntry, placedEntities } from './desktop-message';

describe('entities of the JSON export', () => {
  it('places each piece at its offset and length, without the plain ones', () => {
    // tg2md-channel message 14 (../shared/real-samples/archive/tg2md-channel/PROVENANCE.txt).
    const { text, entities } = exportText(
      [
        { type: 'text_link', text: 'text link\n\n', href: 'http://example.com/' },
        { type: 'link', text: 'example.com' },
        '\n\n',
        { type: 'email', text: 'example@example.com' },
      ],
      undefined,
    );
    expect(text).toBe('text link\n\nexample.com\n\nexample@example.com');
    expect(entities).toEqual([
      { type: 'text_link', text: 'text link\n\n', offset: 0, length: 11, url: 'http://example.com/' },
      { type: 'url', text: 'example.com', offset: 11, length: 11 },
      { type: 'email', text: 'example@example.com', offset: 24, length: 19 },
    ]);
  });

  it('counts UTF-16 units, as the platform does, and reads text_entities beside a plain string', () => {
    const { entities } = exportText('👋 hi there', [
      { type: 'plain', text: '👋 ' },
      { type: 'bold', text: 'hi' },
      { type: 'plain', text: ' there' },
    ]);
    expect(entities).toEqual([{ type: 'bold', text: 'hi', offset: 3, length: 2 }]);
  });

  it('places nothing when the pieces do not spell the text', () => {
    expect(placedEntities('hello', [{ type: 'bold', text: 'help' }])).toEqual([]);
    expect(placedEntities('hello world', [{ type: 'bold', text: 'hello' }])).toEqual([]);
  });
});

describe('a JSON export entry', () => {
  it('keeps a call’s length with its action, and only the placed entities', () => {
    // mlomb-chat-analytics DM_2A_7M.json, entry 3674.
    const call = fromJsonEntry({
      id: 3674,
      type: 'service',
      date: '2023-01-01T10:00:00',
      actor: 'Alice',
      actor_id: 'user300000000',
      action: 'phone_call',
      duration_seconds: 56,
      discard_reason: 'hangup',
      text: '',
      text_entities: [],
    });
    expect(call?.raw).toMatchObject({ action: 'phone_call', duration_seconds: 56, discard_reason: 'hangup' });
    expect(call?.raw).not.toHaveProperty('entities');
    const bold = fromJsonEntry({
      id: 11,
      type: 'message',
      date: '2023-01-01T10:00:00',
      from: 'Me',
      from_id: 'user1',
      text: [{ type: 'bold', text: 'multiline\nbold\n\ntext' }],
    });
    expect(bold?.raw.entities).toEqual([
      { type: 'bold', text: 'multiline\nbold\n\ntext', offset: 0, length: 20 },
    ]);
  });
});
