/**
 * Reader of the desktop app's HTML export: `messages.html`, `messages2.html`, ... in page order. The
 * HTML carries no chat id or type, so the caller names the chat (`-c`, a marked id). Each page is
 * parsed on its own (a page holds at most about a thousand messages).
 */

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type HTMLElement, parse } from 'node-html-parser';
import type { Poll } from '../model/polls';
import type { ChatType } from '../store/store';
import { exportFile } from './export-folder';
import { pollFromHtmlExport } from './export-polls';
import type { ImportEvent, ImportedMedia, ImportedMessage } from './types';
import { ImportError } from './types';

/**
 * The export's pages in order: the first (messages.html, or the page the export named otherwise, such as
 * index.html), then messages2.html, messages3.html, ...; a link leading out of the export is no page.
 */
export function htmlPages(dir: string, first = 'messages.html'): string[] {
  const later = readdirSync(dir)
    .map((name) => ({ name, match: /^messages(\d+)\.html$/.exec(name) }))
    .filter((p) => p.match && Number(p.match[1]) >= 2)
    .sort((a, b) => Number(a.match?.[1]) - Number(b.match?.[1]))
    .map((p) => p.name);
  return [first, ...later]
    .map((name) => exportFile(dir, name))
    .flatMap((found) => (found.kind === 'file' ? [found.path] : []));
}

/** Whether a file's text is a page of the desktop app's HTML export (its header and its history). */
export function isExportPage(text: string): boolean {
  return /class="page_header"/.test(text) && /class="history"/.test(text);
}

const MEDIA_CLASSES: [string, string][] = [
  ['media_voice_message', 'voice'],
  ['media_audio_file', 'audio'],
  ['media_video', 'video'],
  ['video_file_wrap', 'video'],
  ['media_round', 'video_note'],
  ['animated_wrap', 'animation'],
  ['media_animation', 'animation'],
  ['sticker_wrap', 'sticker'],
  ['media_sticker', 'sticker'],
  ['media_photo', 'photo'],
  ['photo_wrap', 'photo'],
  ['media_file', 'document'],
];

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "14.05.2023 16:43:57 UTC+03:30" (older exports: no UTC part, read as UTC). */
export function htmlTime(title: string): Date | null {
  const m = /(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2}):(\d{2})(?: UTC([+-])(\d{2}):(\d{2}))?/.exec(title);
  if (!m) return null;
  const [, d, mo, y, h, mi, s, sign, oh, om] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000 : 0;
  return new Date(utc - offset);
}

/** A date separator ("14 May 2023") as midnight UTC. */
function separatorDate(text: string): Date | null {
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text.trim());
  const month = m ? MONTHS.indexOf((m[2] as string).slice(0, 3).toLowerCase()) : -1;
  if (!m || month < 0) return null;
  return new Date(Date.UTC(Number(m[3]), month, Number(m[1])));
}

/** The visible text of an element: line breaks kept, tags dropped, entities decoded. */
export function htmlText(el: HTMLElement | null | undefined): string {
  if (!el) return '';
  return parse(el.innerHTML.replace(/<br\s*\/?>/gi, '\n'))
    .text.replace(/\r/g, '')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .trim();
}

/** The HTML export's formatting elements, as the platform names their entities. */
const FORMATTING: Record<string, string> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  u: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
};

const FORMATTED = `${Object.keys(FORMATTING).join(', ')}, a`;

/** A character no export text holds, marking where each formatting element begins (htmlEntities). */
const MARK = '\uE000';

/**
 * The formatting of a message's text element, placed in `text` (its htmlText) as the JSON import places
 * the export's pieces (desktop-message.ts): each formatting element and web link, at the occurrence of
 * its text that the element itself is (the same words earlier in plain text are not it). The element's
 * place is found by marking where each element begins in the HTML and counting the occurrences of its
 * text before the mark, so the whitespace the text's normalisation removes cannot shift it. A link whose
 * text is its address is a `url`, any other a `text_link` with its `url`; links that are not web
 * addresses (hashtags, mentions, jumps) are left to the page.
 */
export function htmlEntities(el: HTMLElement | undefined, text: string): Record<string, unknown>[] {
  if (!el || !text) return [];
  // Most messages carry no formatting: their text is not parsed again.
  if (el.querySelector(FORMATTED) === null) return [];
  const html = el.innerHTML;
  const nodes = parse(html).querySelectorAll(FORMATTED);
  // The marked text: a mark after each element's opening tag, inserted from the last one back.
  let marked = html;
  for (const node of [...nodes].reverse()) {
    const open = marked.indexOf('>', node.range[0]) + 1;
    if (open > 0) marked = `${marked.slice(0, open)}${MARK}${marked.slice(open)}`;
  }
  const markedText = htmlText(parse(`<div>${marked}</div>`).firstChild as HTMLElement);
  const marks: number[] = [];
  let plain = '';
  for (const ch of markedText) {
    if (ch === MARK) marks.push(plain.length);
    else plain += ch;
  }
  const out: Record<string, unknown>[] = [];
  nodes.forEach((node, index) => {
    const tag = node.tagName.toLowerCase();
    const href = tag === 'a' ? (node.getAttribute('href') ?? '') : null;
    if (href !== null && !/^https?:\/\//i.test(href)) return;
    const piece = htmlText(node);
    const mark = marks[index];
    if (!piece || mark === undefined) return;
    // Which occurrence of its text the element is, counted in the marked text; the same one in `text`.
    let before = 0;
    for (let at = plain.indexOf(piece); at >= 0 && at < mark; at = plain.indexOf(piece, at + 1)) before++;
    let at = text.indexOf(piece);
    for (let n = 0; n < before && at >= 0; n++) at = text.indexOf(piece, at + 1);
    if (at < 0) return;
    const type = href === null ? FORMATTING[tag] : piece === href ? 'url' : 'text_link';
    out.push({
      type,
      text: piece,
      offset: at,
      length: piece.length,
      ...(type === 'text_link' && { url: href }),
    });
  });
  return out;
}

/** The first direct child carrying every one of these classes. */
const child = (el: HTMLElement, ...classes: string[]) =>
  el.childNodes.find((n) => classes.every((c) => (n as HTMLElement).classList?.contains(c))) as
    | HTMLElement
    | undefined;

function goTo(el: HTMLElement | undefined): number | null {
  const link = el?.querySelector('a');
  const source = `${link?.getAttribute('onclick') ?? ''} ${link?.getAttribute('href') ?? ''}`;
  const m = /GoToMessage\((-?\d+)\)|go_to_message(-?\d+)/.exec(source);
  return m ? Number(m[1] ?? m[2]) : null;
}

const localPath = (href: string | undefined) =>
  href && !/^([a-z]+:|#|\/)/i.test(href) ? decodeURI(href) : null;

function htmlMedia(root: HTMLElement): { media: ImportedMedia | null; poll: Poll | null } {
  const wrap = child(root, 'media_wrap');
  if (!wrap) return { media: null, poll: null };
  const poll = wrap.querySelector('.media_poll');
  if (poll) {
    return {
      media: null,
      poll: pollFromHtmlExport({
        question: htmlText(poll.querySelector('.question')),
        details: htmlText(child(poll, 'details')),
        answers: poll.querySelectorAll('.answer').map((a) => {
          const votes = a.querySelector('.details');
          const text = htmlText(a);
          const counted = htmlText(votes);
          return { text: counted ? text.slice(0, text.lastIndexOf(counted)).trim() : text, votes: counted };
        }),
        total: htmlText(poll.querySelector('.total')),
      }),
    };
  }
  for (const [cls, type] of MEDIA_CLASSES) {
    const el = wrap.querySelector(`.${cls}`);
    if (!el) continue;
    const link = el.tagName === 'A' ? el : (el.closest('a') ?? el.querySelector('a'));
    const relativePath = localPath(link?.getAttribute('href'));
    const title = htmlText(el.querySelector('.title'));
    return {
      media: {
        type,
        relativePath,
        fileName: type === 'photo' ? null : title || (relativePath ? path.basename(relativePath) : null),
        mimeType: null,
        width: null,
        height: null,
        duration: null,
        fileSize: null,
      },
      poll: null,
    };
  }
  // A bare photo link (simplified exports): <a href="photos/..."><img class="photo"></a>
  const img = wrap.querySelector('img.photo');
  if (img) {
    const link = img.closest('a');
    return {
      media: {
        type: 'photo',
        relativePath: localPath(link?.getAttribute('href') ?? undefined),
        fileName: null,
        mimeType: null,
        width: null,
        height: null,
        duration: null,
        fileSize: null,
      },
      poll: null,
    };
  }
  return { media: null, poll: null };
}

function reactions(body: HTMLElement): { emoji: string; count: number }[] {
  const out = new Map<string, number>();
  for (const r of body.querySelectorAll('.reactions .reaction')) {
    const emoji = htmlText(r.querySelector('.emoji'));
    const count = Number(htmlText(r.querySelector('.count')) || '1');
    if (emoji && emoji.length <= 50 && Number.isFinite(count) && count > 0) out.set(emoji, count);
  }
  return [...out].map(([emoji, count]) => ({ emoji, count }));
}

export interface HtmlChatHint {
  id: number;
  type: ChatType;
}

/** The chat type an HTML export implies for a marked id: -100... is a channel when the page says so. */
export function htmlChatType(chatId: number, firstPage: string): ChatType {
  if (chatId > 0) return 'private';
  if (chatId > -1_000_000_000_000) return 'group';
  return firstPage.includes('class="signature') || createsChannel(firstPage) ? 'channel' : 'supergroup';
}

const OPENING = ['&laquo;', '«', '"'];
const CLOSING = ['&raquo; created', '» created', '" created'];

/** The service line `Channel «Name» created` (the name within 300 characters of one line), in one pass. */
function createsChannel(page: string): boolean {
  for (let at = page.indexOf('Channel '); at >= 0; at = page.indexOf('Channel ', at + 1)) {
    const rest = page.slice(at + 'Channel '.length, at + 'Channel '.length + 7 + 300 + 15);
    const open = OPENING.find((quote) => rest.startsWith(quote));
    if (!open) continue;
    const name = rest.slice(open.length).split(/[\n\r\u2028\u2029]/)[0] ?? '';
    if (
      CLOSING.some((close) => {
        const end = name.indexOf(close);
        return end >= 0 && end <= 300;
      })
    )
      return true;
  }
  return false;
}

export function* readDesktopHtml(dir: string, chatId: number, first?: string): Generator<ImportEvent> {
  const pages = htmlPages(dir, first);
  if (pages.length === 0) throw new ImportError('no messages.html in the export folder');
  let started = false;
  let lastDate: Date | null = null;
  let lastSender: string | null = null;
  for (const [index, page] of pages.entries()) {
    const html = readFileSync(page, 'utf8');
    const root = parse(html);
    const history = root.querySelector('.history');
    const messages = history?.querySelectorAll('div.message') ?? [];
    if (!history || !messages.some((m) => /^message-?\d+$/.test(m.id))) {
      throw new ImportError(`${path.basename(page)} is not a desktop-app HTML export`);
    }
    if (!started) {
      const title = htmlText(root.querySelector('.page_header .text.bold')) || null;
      yield {
        kind: 'chat',
        chat: { id: chatId, type: htmlChatType(chatId, html), exportType: 'html', title },
      };
      started = true;
    }
    for (const el of messages) {
      const id = Number(el.id.replace(/^message/, ''));
      if (!Number.isSafeInteger(id)) continue;
      if (el.classList.contains('service')) {
        const text = htmlText(el.querySelector('.body'));
        if (id < 0) {
          lastDate = separatorDate(text) ?? lastDate;
          continue;
        }
        if (!lastDate) {
          yield { kind: 'skipped', reason: 'a service entry without a date' };
          continue;
        }
        const pinned = /pinned/i.test(text) ? goTo(el.querySelector('.body') ?? undefined) : null;
        yield {
          kind: 'message',
          message: {
            id,
            date: lastDate,
            senderId: null,
            senderName: null,
            text: null,
            replyToMsgId: null,
            forwardFromId: null,
            editDate: null,
            // The pinned message's id beside the words, so the line can quote it (queries/messages.ts).
            raw: {
              export_type: 'service',
              action_text: text,
              page: index + 1,
              ...(pinned !== null && { message_id: pinned }),
            },
            media: null,
            poll: null,
            reactions: [],
            pinned,
          },
        };
        continue;
      }
      const body = child(el, 'body');
      if (!body) continue;
      const date = htmlTime(body.querySelector('.date')?.getAttribute('title') ?? '');
      if (!date) {
        yield { kind: 'skipped', reason: 'a message without a date' };
        continue;
      }
      lastDate = date;
      const ownName = child(body, 'from_name');
      if (ownName) lastSender = htmlText(ownName);
      const forwarded = child(body, 'forwarded', 'body');
      const content = forwarded ?? body;
      const raw: Record<string, unknown> = { export_type: 'message' };
      if (forwarded) {
        const from = child(forwarded, 'from_name');
        const when = from?.querySelector('.details');
        raw.forwarded_from = htmlText(from).replace(htmlText(when), '').trim() || null;
        if (when) raw.forwarded_date = htmlText(when);
      }
      const signature = child(body, 'signature');
      if (signature) raw.author = htmlText(signature);
      const { media, poll } = htmlMedia(content);
      const textElement = child(content, 'text');
      const text = htmlText(textElement);
      const entities = htmlEntities(textElement, text);
      if (entities.length > 0) raw.entities = entities;
      const message: ImportedMessage = {
        id,
        date,
        senderId: null,
        senderName: lastSender,
        text: text || null,
        replyToMsgId: goTo(child(body, 'reply_to')),
        forwardFromId: null,
        editDate: null,
        raw,
        media,
        poll,
        reactions: reactions(body),
        pinned: null,
      };
      yield { kind: 'message', message };
    }
  }
  yield { kind: 'end' };
}
