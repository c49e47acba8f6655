/**
 * Message text: the platform's entities when the archive kept them (bold, italic, code, links, mentions),
 * otherwise links, `#tags` and `$TAGS` found in the text; tags open the tag view; search words are marked.
 */
import type { ComponentChildren } from 'preact';
import { safeBareHref, safeHref } from '../shared/links';

interface Entity {
  kind: string;
  offset: number;
  length: number;
  url?: string;
}

function entitiesOf(raw: Record<string, unknown> | null | undefined): Entity[] {
  const list = raw?.entities;
  if (!Array.isArray(list)) return [];
  const out: Entity[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const e = item as Record<string, unknown>;
    const kind = String(e.type ?? e._ ?? e.className ?? '')
      .replace(/^MessageEntity/, '')
      .replace(/^messageEntity/, '')
      .toLowerCase();
    const offset = Number(e.offset);
    const length = Number(e.length);
    if (!kind || !Number.isInteger(offset) || !Number.isInteger(length) || length <= 0) continue;
    out.push({ kind, offset, length, ...(typeof e.url === 'string' && { url: e.url }) });
  }
  return out.sort((a, b) => a.offset - b.offset);
}

/**
 * A link, or a tag as the tag route takes it (the document's `tag` parameter: `#` and 1-64 letters,
 * digits or `_`; `$` and 1-8 Latin letters), standing alone: "$1 million" or "$BTCUSDT2" carries none.
 */
export const TOKEN =
  /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'])|(^|[^\w&])(#[\p{L}\p{N}_]{1,64}|\$[A-Za-z]{1,8})(?![\p{L}\p{N}_])/gu;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function highlight(text: string, words: string[], key: string): ComponentChildren {
  if (words.length === 0 || !text) return text;
  const pattern = new RegExp(`(${words.map(escapeRegExp).join('|')})`, 'giu');
  const parts = text.split(pattern);
  return parts.map((part, i) => (i % 2 === 1 ? <mark key={`${key}-${i}`}>{part}</mark> : part));
}

export const tagHref = (tag: string) => `#/tag/${encodeURIComponent(tag)}`;

/** Plain text with links and tags made clickable (`links` false: inside another link, marked only). */
function linkify(text: string, words: string[], key: string, links = true): ComponentChildren[] {
  if (!links) return [highlight(text, words, key)];
  const out: ComponentChildren[] = [];
  let last = 0;
  let n = 0;
  for (const match of text.matchAll(TOKEN)) {
    const [whole, url, lead = '', tag] = match;
    const start = match.index ?? 0;
    const href = url ? safeHref(url) : null;
    if (url && href) {
      out.push(highlight(text.slice(last, start), words, `${key}-t${n}`));
      out.push(
        <a key={`${key}-u${n}`} href={href} target="_blank" rel="noopener noreferrer">
          {highlight(url, words, `${key}-uh${n}`)}
        </a>,
      );
      last = start + whole.length;
    } else if (tag) {
      out.push(highlight(text.slice(last, start + lead.length), words, `${key}-t${n}`));
      out.push(
        <a key={`${key}-g${n}`} class="tag" href={tagHref(tag)}>
          {highlight(tag, words, `${key}-gh${n}`)}
        </a>,
      );
      last = start + whole.length;
    }
    n++;
  }
  out.push(highlight(text.slice(last), words, `${key}-end`));
  return out;
}

/** A link to `href`, or the text alone when the value is no link a chat app would open (see safeHref). */
function link(href: string | null, inner: ComponentChildren, key: string): ComponentChildren {
  return href ? (
    <a key={key} href={href} target="_blank" rel="noopener noreferrer">
      {inner}
    </a>
  ) : (
    <span key={key}>{inner}</span>
  );
}

function styled(entity: Entity, inner: ComponentChildren, body: string, key: string): ComponentChildren {
  switch (entity.kind) {
    case 'bold':
      return <strong key={key}>{inner}</strong>;
    case 'italic':
      return <em key={key}>{inner}</em>;
    case 'underline':
      return <u key={key}>{inner}</u>;
    case 'strike':
    case 'strikethrough':
      return <s key={key}>{inner}</s>;
    case 'code':
      return <code key={key}>{inner}</code>;
    case 'pre':
      return (
        <pre key={key}>
          <code>{inner}</code>
        </pre>
      );
    case 'spoiler':
      return (
        <span key={key} class="spoiler">
          {inner}
        </span>
      );
    case 'texturl':
    case 'text_link':
      return link(safeHref(entity.url), inner, key);
    case 'url':
      return link(safeBareHref(body), inner, key);
    case 'hashtag':
    case 'cashtag':
      return (
        <a key={key} class="tag" href={tagHref(body)}>
          {inner}
        </a>
      );
    case 'mention':
      return (
        <span key={key} class="mention">
          {inner}
        </span>
      );
    default:
      return inner;
  }
}

export function RichText(props: {
  text: string | null;
  raw?: Record<string, unknown> | null;
  highlight?: string;
  links?: boolean;
}) {
  const links = props.links ?? true;
  const text = props.text ?? '';
  const words = (props.highlight ?? '')
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}_#$-]/gu, ''))
    .filter((w) => w.length > 0);
  const entities = entitiesOf(props.raw);
  if (entities.length === 0 || !links) return <>{linkify(text, words, 'p', links)}</>;
  // Entity offsets count UTF-16 code units, as JavaScript strings do.
  const out: ComponentChildren[] = [];
  let at = 0;
  entities.forEach((entity, i) => {
    if (entity.offset < at) return;
    out.push(linkify(text.slice(at, entity.offset), words, `b${i}`));
    const body = text.slice(entity.offset, entity.offset + entity.length);
    out.push(styled(entity, highlight(body, words, `e${i}`), body, `s${i}`));
    at = entity.offset + entity.length;
  });
  out.push(linkify(text.slice(at), words, 'tail'));
  return <>{out}</>;
}

/**
 * A reaction as a chat app shows it: the emoji, a star for paid reactions, and a plain mark for a custom
 * emoji, whose picture the archive does not keep (`custom_<document id>`; `custom:` in older archives).
 */
export function reactionShown(emoji: string): { glyph: string; name: string } {
  if (emoji === 'paid') return { glyph: '⭐', name: 'paid stars' };
  if (/^custom[_:]/.test(emoji)) return { glyph: '✧', name: 'custom emoji' };
  return { glyph: emoji, name: emoji };
}
