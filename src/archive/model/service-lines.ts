/**
 * A service message (a pin, a new member, a call, ...) in words, as a chat app shows it: "Anna pinned
 * “Release checklist”", "Erik added Jonas and Marta", "Missed call". Actions are named as the desktop app's
 * JSON export names them (`pin_message`, `invite_members`, `phone_call`, ...); the platform's actions are
 * mapped to the same names when they are archived (backup/gramjs/mapping.ts), so one table serves both. An
 * action the table does not know still gets a readable line, never its code.
 */

export interface ServiceAction {
  /** The action's name, or null when the source gave none (an entry with only `information_text`). */
  action: string | null;
  /** Who did it, as archived; null when the source does not say. */
  actor: string | null;
  /** The fields given with the action (`title`, `members`, `duration_seconds`, `message_id`, ...). */
  details: Record<string, unknown>;
  /** The start of the message the action names (a pinned message), when the archive holds it. */
  quoted?: string | null;
}

const QUOTE_CHARS = 60;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const names = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x.trim() : '')).filter((x) => x !== '') : [];

/** "Jonas", "Jonas and Marta", "Jonas, Marta and Erik". */
export function listOfNames(list: string[]): string {
  if (list.length <= 1) return list[0] ?? '';
  return `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
}

/** "45 s", "2 min", "1 h 5 min". */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest === 0 ? `${Math.floor(minutes / 60)} h` : `${Math.floor(minutes / 60)} h ${rest} min`;
}

/** "1 day", "1 week", "3 hours": a period given in seconds. */
function period(seconds: number): string {
  const units: [number, string][] = [
    [31_536_000, 'year'],
    [2_592_000, 'month'],
    [604_800, 'week'],
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}

/** The quoted start of a message's text: “Release checklist…”. */
export function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `“${line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS - 1).trimEnd()}…` : line}”`;
}

const money = (amount: number | null, currency: string | null): string | null =>
  amount === null || currency === null ? null : `${(amount / 100).toFixed(2)} ${currency}`;

type Line = (who: string, d: Record<string, unknown>, a: ServiceAction) => string;

const LINES: Record<string, Line> = {
  create_channel: (_, d) => `Channel “${str(d.title) ?? 'untitled'}” created`,
  create_group: (who, d) => {
    const members = names(d.members);
    return `${who} created the group “${str(d.title) ?? 'untitled'}”${members.length ? ` with ${listOfNames(members)}` : ''}`;
  },
  migrate_to_supergroup: (who) => `${who} converted this group to a supergroup`,
  migrate_from_group: (_, d) =>
    `This supergroup was converted from the group “${str(d.title) ?? 'untitled'}”`,
  edit_group_title: (who, d) => `${who} changed the group name to “${str(d.title) ?? ''}”`,
  edit_group_photo: (who) => `${who} changed the group photo`,
  delete_group_photo: (who) => `${who} removed the group photo`,
  invite_members: (who, d) => {
    const members = names(d.members);
    return members.length ? `${who} added ${listOfNames(members)}` : `${who} added members`;
  },
  remove_members: (who, d) => {
    const members = names(d.members);
    if (members.length === 1 && members[0] === who) return `${who} left the group`;
    return members.length ? `${who} removed ${listOfNames(members)}` : `${who} removed members`;
  },
  join_group_by_link: (who, d) =>
    `${who} joined the group via an invite link${str(d.inviter) ? ` from ${str(d.inviter)}` : ''}`,
  join_group_by_request: (who) => `${who} was accepted into the group`,
  joined_telegram: (who) => `${who} joined Telegram`,
  pin_message: (who, _, a) => (a.quoted ? `${who} pinned ${a.quoted}` : `${who} pinned a message`),
  clear_history: () => 'History was cleared',
  phone_call: (who, d) => {
    const seconds = num(d.duration_seconds ?? d.duration);
    const reason = str(d.discard_reason);
    const from = who === 'Someone' ? '' : ` from ${who}`;
    // A call that lasted was a call, however it ended (`hangup` after 56 s is the usual end).
    if (seconds) return `Call${from}, ${duration(seconds)}`;
    if (reason === 'missed') return `Missed call${from}`;
    if (reason === 'busy') return `Declined call${from}`;
    if (reason === 'hangup') return `Cancelled call${from}`;
    return `Call${from}`;
  },
  conference_call: (_, d) => {
    const seconds = num(d.duration_seconds);
    if (d.is_missed === true) return 'Missed group call';
    return seconds ? `Group call, ${duration(seconds)}` : 'Group call';
  },
  group_call: (who, d) => {
    const seconds = num(d.duration ?? d.duration_seconds);
    return seconds ? `Video chat ended, ${duration(seconds)}` : `${who} started a video chat`;
  },
  group_call_scheduled: (who, d) => {
    const at = num(d.schedule_date);
    return at
      ? `${who} scheduled a video chat for ${new Date(at * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`
      : `${who} scheduled a video chat`;
  },
  invite_to_group_call: (who, d) => {
    const members = names(d.members);
    return `${who} invited ${members.length ? listOfNames(members) : 'members'} to the video chat`;
  },
  set_messages_ttl: (who, d) => {
    const seconds = num(d.period ?? d.period_seconds);
    return seconds
      ? `${who} set messages to disappear after ${period(seconds)}`
      : `${who} turned off disappearing messages`;
  },
  edit_chat_theme: (who, d) =>
    str(d.emoticon)
      ? `${who} changed the chat theme to ${str(d.emoticon)}`
      : `${who} turned off the chat theme`,
  set_chat_wallpaper: (who) => `${who} set a new wallpaper for this chat`,
  set_same_chat_wallpaper: (who) => `${who} set the same wallpaper for this chat`,
  take_screenshot: (who) => `${who} took a screenshot`,
  score_in_game: (who, d) => `${who} scored ${num(d.score) ?? 0} in a game`,
  send_payment: (_, d) => {
    const paid = money(num(d.amount), str(d.currency));
    return paid ? `Payment of ${paid} sent` : 'Payment sent';
  },
  refunded_payment: (_, d) => {
    const paid = money(num(d.amount), str(d.currency));
    return `${paid ? `${paid} refunded` : 'Payment refunded'}${str(d.peer_name) ? ` to ${str(d.peer_name)}` : ''}`;
  },
  custom_action: (who, d) => str(d.title) ?? `${who} did something in the chat`,
  attach_menu_bot_allowed: () => 'A bot was allowed in the attachment menu',
  web_app_bot_allowed: () => 'A web app was allowed to send messages',
  allow_sending_messages: (_, d) =>
    `Messages were allowed${str(d.reason_app_name) ? ` by ${str(d.reason_app_name)}` : ''}`,
  send_passport_values: (who, d) => {
    const values = names(d.values).map((v) => v.replace(/_/g, ' '));
    return `${who} shared ${values.length ? listOfNames(values) : 'documents'} through Passport`;
  },
  proximity_reached: (_, d) =>
    `${str(d.from) ?? 'Someone'} is within ${num(d.distance) ?? '?'} m of ${str(d.to) ?? 'you'}`,
  requested_phone_number: (who) => `${who} asked for a phone number`,
  send_webview_data: (_, d) => `Data sent from a web app${str(d.text) ? `: ${str(d.text)}` : ''}`,
  send_premium_gift: (who, d) => {
    const days = num(d.days);
    return `${who} sent a gift of Premium${days ? ` for ${days} days` : ''}${str(d.cost) ? ` (${str(d.cost)})` : ''}`;
  },
  suggest_profile_photo: (who) => `${who} suggested a new profile photo`,
  requested_peer: (who) => `${who} shared a chat with a bot`,
  gift_code_prize: (_, d) => {
    const days = num(d.days);
    return `A Premium gift code${days ? ` for ${days} days` : ''} was won${d.via_giveaway === true ? ' in a giveaway' : ''}`;
  },
  giveaway_launch: () => 'A giveaway was started',
  giveaway_results: (_, d) => {
    const winners = num(d.winners);
    return winners !== null
      ? `Giveaway ended: ${winners} winner${winners === 1 ? '' : 's'}`
      : 'Giveaway ended';
  },
  send_ton_gift: (who, d) => `${who} sent a gift${str(d.cost) ? ` of ${str(d.cost)}` : ''}`,
  send_stars_gift: (who, d) => `${who} sent a gift${str(d.cost) ? ` of ${str(d.cost)}` : ' of stars'}`,
  stars_prize: (_, d) =>
    `${num(d.stars) ?? 'Some'} stars were won${str(d.boost_peer_name) ? ` from ${str(d.boost_peer_name)}` : ''}`,
  send_star_gift: (who, d) =>
    `${who} sent a gift${num(d.stars) !== null ? ` worth ${num(d.stars)} stars` : ''}${str(d.gift_text) ? `: “${str(d.gift_text)}”` : ''}`,
  paid_messages_refund: (who, d) =>
    `${who} refunded ${num(d.stars_count) ?? 'the'} stars for ${num(d.messages_count) ?? 'some'} messages`,
  paid_messages_price_change: (who, d) => {
    const stars = num(d.price_stars);
    return stars ? `${who} set the price of a message to ${stars} stars` : `${who} made messages free`;
  },
  todo_completions: (who, d) => {
    const done = Array.isArray(d.completed) ? d.completed.length : 0;
    const undone = Array.isArray(d.incompleted) ? d.incompleted.length : 0;
    const parts = [
      done ? `marked ${done} task${done === 1 ? '' : 's'} done` : '',
      undone ? `reopened ${undone}` : '',
    ];
    return `${who} ${parts.filter(Boolean).join(' and ') || 'updated the checklist'}`;
  },
  todo_append_tasks: (who, d) => {
    const items = Array.isArray(d.items)
      ? d.items.map((i) => str((i as Record<string, unknown>)?.text)).filter((t) => t !== null)
      : [];
    return items.length
      ? `${who} added ${listOfNames(items.map((t) => `“${t}”`))} to the checklist`
      : `${who} added tasks to the checklist`;
  },
  process_suggested_post: (who, d) =>
    d.rejected === true ? `${who} declined a suggested post` : `${who} approved a suggested post`,
  suggested_post_success: () => 'A suggested post was published',
  suggested_post_refund: () => 'A suggested post was refunded',
  suggest_birthday: (who, d) => {
    const day = num(d.day);
    const month = num(d.month);
    return day && month
      ? `${who} suggested a birthday: ${day} ${MONTHS[month - 1] ?? month}`
      : `${who} suggested a birthday`;
  },
  new_creator_pending: (who, d) => `${who} will hand the chat over to ${str(d.new_creator) ?? 'a new owner'}`,
  change_creator: (_, d) => `${str(d.new_creator) ?? 'A new member'} is now the chat's owner`,
  topic_created: (who, d) => `${who} created the topic “${str(d.title) ?? 'untitled'}”`,
  topic_edit: (who, d) =>
    str(d.title) ? `${who} renamed the topic to “${str(d.title)}”` : `${who} changed the topic`,
  boost_apply: (who) => `${who} boosted the chat`,
  contact_sign_up: (who) => `${who} joined Telegram`,
};

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "suggest_birthday" → "suggest birthday"; "ChatEditTitle" → "chat edit title". */
const humanize = (code: string) =>
  code
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();

/** The action in words. */
export function serviceLine(a: ServiceAction): string {
  const who = a.actor?.trim() || 'Someone';
  const info = str(a.details.information_text);
  if (a.action === null) return info ?? `${who}: a service notice`;
  const line = LINES[a.action];
  if (line) return line(who, a.details, a);
  return `${who}: ${humanize(a.action) || 'a service notice'}`;
}

/** Whether the table knows the action (an unknown one gets the generic line). */
export const knownServiceAction = (action: string) => Object.hasOwn(LINES, action);

/**
 * A message's service line from its raw data, or null for an ordinary message. The JSON export and the
 * platform give the action's name and fields (`action`, with the actor in `actor` or as the sender); the
 * HTML export gives the line in words already (`action_text`). `quoted` is the pinned message's quote.
 */
export function serviceOf(
  raw: Record<string, unknown> | null,
  senderName: string | null,
  quoted: string | null = null,
): { action: string | null; text: string } | null {
  if (!raw) return null;
  const words = str(raw.action_text);
  if (raw.export_type === 'service' && words) {
    // The HTML export's "Anna pinned this message", with the pinned message quoted when it is known.
    const text = quoted ? words.replace(/\bpinned (this|a) message\b/i, `pinned ${quoted}`) : words;
    return { action: null, text };
  }
  const action = str(raw.action);
  if (raw.export_type !== 'service' && action === null) return null;
  const actor = str(raw.actor) ?? senderName;
  return { action, text: serviceLine({ action, actor, details: raw, quoted }) };
}
