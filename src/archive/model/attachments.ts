/**
 * What a message carries besides text, media files and polls, in words: a place, a contact, a game, an
 * invoice, a checklist, a giveaway. The desktop export writes these as their own fields
 * (`location_information`, `contact_information`, `todo_list`, ...), kept in the message's raw data; the
 * platform's copy names only the kind (`media`: `MessageMediaGeo`, ...). A chat app shows each as a small
 * card; without this a message holding only one would read as an empty bubble.
 */

export interface Attachment {
  kind:
    | 'location'
    | 'live_location'
    | 'venue'
    | 'contact'
    | 'game'
    | 'invoice'
    | 'checklist'
    | 'giveaway'
    | 'dice';
  text: string;
}

type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const obj = (v: unknown): Json | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
const joined = (parts: (string | null)[], separator = ', ') =>
  parts.filter((p) => p !== null).join(separator);

/** The platform's media classes that have no file, by what they are. */
const PLATFORM_KINDS: Record<string, Attachment> = {
  MessageMediaGeo: { kind: 'location', text: 'Location' },
  MessageMediaGeoLive: { kind: 'live_location', text: 'Live location' },
  MessageMediaVenue: { kind: 'venue', text: 'Place' },
  MessageMediaContact: { kind: 'contact', text: 'Contact' },
  MessageMediaGame: { kind: 'game', text: 'Game' },
  MessageMediaInvoice: { kind: 'invoice', text: 'Invoice' },
  MessageMediaDice: { kind: 'dice', text: 'Dice' },
  MessageMediaGiveaway: { kind: 'giveaway', text: 'Giveaway' },
  MessageMediaGiveawayResults: { kind: 'giveaway', text: 'Giveaway results' },
};

function place(raw: Json): Attachment | null {
  const at = obj(raw.location_information);
  const coordinates =
    at && num(at.latitude) !== null && num(at.longitude) !== null ? `${at.latitude}, ${at.longitude}` : null;
  const name = str(raw.place_name);
  if (name || str(raw.address)) return { kind: 'venue', text: joined([name, str(raw.address), coordinates]) };
  if (!coordinates) return null;
  return raw.live_location_period_seconds !== undefined
    ? { kind: 'live_location', text: `Live location: ${coordinates}` }
    : { kind: 'location', text: `Location: ${coordinates}` };
}

function contact(raw: Json): Attachment | null {
  const c = obj(raw.contact_information);
  if (!c) return null;
  const name = joined([str(c.first_name), str(c.last_name)], ' ');
  return { kind: 'contact', text: `Contact: ${joined([name || null, str(c.phone_number)]) || 'unnamed'}` };
}

function game(raw: Json): Attachment | null {
  const title = str(raw.game_title);
  return title ? { kind: 'game', text: `Game: ${joined([title, str(raw.game_description)], ' — ')}` } : null;
}

function invoice(raw: Json): Attachment | null {
  const i = obj(raw.invoice_information);
  if (!i) return null;
  const amount = num(i.amount);
  const price = amount !== null && str(i.currency) ? `${(amount / 100).toFixed(2)} ${str(i.currency)}` : null;
  return { kind: 'invoice', text: `Invoice: ${joined([str(i.title), price]) || 'untitled'}` };
}

function checklist(raw: Json): Attachment | null {
  const t = obj(raw.todo_list);
  if (!t) return null;
  const items = Array.isArray(t.answers)
    ? t.answers.map((a) => str(obj(a)?.text)).filter((x) => x !== null)
    : [];
  return { kind: 'checklist', text: `Checklist: ${joined([str(t.title), items.join('; ') || null], ': ')}` };
}

function giveaway(raw: Json): Attachment | null {
  const g = obj(raw.giveaway_information);
  if (g) {
    const quantity = num(g.quantity);
    const months = num(g.months);
    const prize = months
      ? `Premium for ${months} month${months === 1 ? '' : 's'}`
      : num(g.stars)
        ? `${g.stars} stars`
        : null;
    const until = str(g.until_date)?.slice(0, 10) ?? null;
    return {
      kind: 'giveaway',
      text: `Giveaway: ${joined([quantity && prize ? `${quantity} × ${prize}` : prize, until && `until ${until}`]) || 'announced'}`,
    };
  }
  const r = obj(raw.giveaway_results);
  if (!r) return null;
  const winners = num(r.winners_count);
  return {
    kind: 'giveaway',
    text: `Giveaway results: ${winners ?? 'some'} winner${winners === 1 ? '' : 's'}`,
  };
}

const READERS = [place, contact, game, invoice, checklist, giveaway];

/** The message's attachment in words, or null when it carries none. */
export function attachmentOf(raw: Json | null): Attachment | null {
  if (!raw) return null;
  for (const read of READERS) {
    const found = read(raw);
    if (found) return found;
  }
  const platform = str(raw.media);
  return platform ? (PLATFORM_KINDS[platform] ?? null) : null;
}
