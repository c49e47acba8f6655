import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { MessageMediaTypeLabels } from '../../generated/archive/labels';
import type { ServerMessage } from '../../generated/archive-updates/frames';
import { Notice } from '../shared/notice';
import { formatBytes } from '../shared/sizes';
import { api, type Chat, chatTitle, detail, type Message, type Schemas, type Topic } from './api';
import { Avatar } from './chats';
import { type LiveState, useLiveUpdates } from './live';
import { Lightbox, MediaView, Transcripts } from './media';
import { notifyInTab, PushToggle } from './push';
import { RichText, reactionShown } from './text';
import { dayOf, formatDateTime, formatDay, formatTime, timeZone } from './time';

const PAGE = 50;

type Panel = 'calendar' | 'gallery' | 'export' | 'info' | null;

/** Oldest first; a message from the server replaces the one with the same id. */
function merge(current: Message[], incoming: Message[]): Message[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
}

export function ChatView(props: { chatRef: string; jumpTo?: number; noDownload: boolean; master: boolean }) {
  const ref = props.chatRef;
  const [chat, setChat] = useState<Chat | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [topics, setTopics] = useState<Topic[]>([]);
  const [topic, setTopic] = useState<number | null>(null);
  const [messages, setMessages] = useState<Message[]>([]);
  const [hasOlder, setHasOlder] = useState(false);
  const [hasNewer, setHasNewer] = useState(false);
  const [pinned, setPinned] = useState<Message[]>([]);
  const [panel, setPanel] = useState<Panel>(null);
  const [versionsOf, setVersionsOf] = useState<Message | null>(null);
  const [focusId, setFocusId] = useState<number | null>(props.jumpTo ?? null);
  const [transcription, setTranscription] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const busy = useRef(false);
  const keepBottom = useRef(true);
  const anchor = useRef<{ height: number; top: number } | null>(null);

  const topicQuery = topic === null ? {} : { topic_id: topic };

  const page = async (query: Record<string, number | string>) => {
    const result = await api.GET('/api/chats/{chat_ref}/messages', {
      params: { path: { chat_ref: ref }, query: { limit: PAGE, ...topicQuery, ...query } },
    });
    return result.data ?? [];
  };

  const loadLatest = async () => {
    busy.current = true;
    const list = await page({});
    keepBottom.current = true;
    setMessages(merge([], list));
    setHasOlder(list.length === PAGE);
    setHasNewer(false);
    busy.current = false;
  };

  const loadAround = async (id: number) => {
    busy.current = true;
    const [newer, older] = await Promise.all([
      page({ after_id: Math.max(0, id - 1) }),
      page({ before_id: id }),
    ]);
    keepBottom.current = false;
    setMessages(merge([], [...older, ...newer]));
    setHasOlder(older.length === PAGE);
    setHasNewer(newer.length === PAGE);
    setFocusId(id);
    busy.current = false;
  };

  const loadOlder = async () => {
    const oldest = messages[0];
    if (busy.current || !hasOlder || !oldest) return;
    busy.current = true;
    const el = scroller.current;
    if (el) anchor.current = { height: el.scrollHeight, top: el.scrollTop };
    const list = await page({ before_date: oldest.date, before_id: oldest.id });
    keepBottom.current = false;
    setMessages((current) => merge(current, list));
    setHasOlder(list.length === PAGE);
    busy.current = false;
  };

  const loadNewer = async () => {
    const newest = messages.at(-1);
    if (busy.current || !hasNewer || !newest) return;
    busy.current = true;
    const list = await page({ after_id: newest.id });
    keepBottom.current = false;
    setMessages((current) => merge(current, list));
    setHasNewer(list.length === PAGE);
    busy.current = false;
  };

  useEffect(() => {
    setMissing(null);
    api.GET('/api/chats/{chat_ref}', { params: { path: { chat_ref: ref } } }).then((r) => {
      if (!r.data) {
        setMissing(detail(r));
        return;
      }
      setChat(r.data);
      if (r.data.is_forum)
        api
          .GET('/api/chats/{chat_ref}/topics', { params: { path: { chat_ref: ref } } })
          .then((t) => setTopics(t.data?.topics ?? []));
    });
    api
      .GET('/api/chats/{chat_ref}/pinned', { params: { path: { chat_ref: ref } } })
      .then((r) => setPinned(r.data ?? []));
    api
      .GET('/api/transcription/status')
      .then((r) => setTranscription(Boolean(r.data?.enabled && r.data.configured)));
  }, [ref]);

  useEffect(() => {
    if (props.jumpTo && topic === null) void loadAround(props.jumpTo);
    else void loadLatest();
  }, [ref, topic, props.jumpTo]);

  // Keep the reader's place: at the bottom for the newest page, still when older messages are added above.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
    } else if (focusId !== null) {
      const target = el.querySelector<HTMLElement>(`[data-message="${focusId}"]`);
      if (target) {
        target.scrollIntoView({ block: 'center' });
        target.focus({ preventScroll: true });
        setFocusId(null);
      }
    } else if (keepBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    if (el.scrollTop < 300) void loadOlder();
    if (el.scrollHeight - el.scrollTop - el.clientHeight < 300) void loadNewer();
  };

  const live = useLiveUpdates(
    ref,
    useCallback(
      (event: ServerMessage) => {
        switch (event.type) {
          case 'new_message':
            void notifyInTab(chat ? chatTitle(chat) : 'New message', event.message);
            if (!hasNewer) {
              const el = scroller.current;
              keepBottom.current = el ? el.scrollHeight - el.scrollTop - el.clientHeight < 80 : true;
              // A message the backup pushed before storing it may come without its reactions.
              setMessages((current) =>
                merge(current, [{ ...event.message, reactions: event.message.reactions ?? [] }]),
              );
            }
            break;
          case 'edit':
            setMessages((current) =>
              current.map((m) =>
                m.id === event.message_id ? { ...m, text: event.new_text, edit_date: event.edit_date } : m,
              ),
            );
            break;
          case 'delete':
            keepBottom.current = false;
            setMessages((current) =>
              event.deletion_mode === 'hard'
                ? current.filter((m) => m.id !== event.message_id)
                : current.map((m) =>
                    m.id === event.message_id ? { ...m, is_deleted: true, deleted_at: event.deleted_at } : m,
                  ),
            );
            break;
          case 'pin':
            keepBottom.current = false;
            setMessages((current) =>
              current.map((m) => (event.message_ids.includes(m.id) ? { ...m, is_pinned: event.pinned } : m)),
            );
            api
              .GET('/api/chats/{chat_ref}/pinned', { params: { path: { chat_ref: ref } } })
              .then((r) => setPinned(r.data ?? []));
            break;
          case 'reaction':
            keepBottom.current = false;
            setMessages((current) =>
              current.map((m) => (m.id === event.message_id ? { ...m, reactions: event.reactions } : m)),
            );
            break;
          case 'transcript':
            keepBottom.current = false;
            void page({ after_id: event.message_id - 1 }).then((list) => {
              const fresh = list.find((m) => m.id === event.message_id);
              if (fresh) setMessages((current) => current.map((m) => (m.id === fresh.id ? fresh : m)));
            });
            break;
        }
      },
      [hasNewer, ref, chat],
    ),
  );

  if (missing) return <Notice kind="error">{missing}</Notice>;
  const title = chat ? chatTitle(chat) : '';
  const byId = new Map(messages.map((m) => [m.id, m]));

  return (
    <section class="chat" aria-label={title || 'Chat'}>
      <header class="chat-head">
        <a href="#/" class="back" aria-label="Back to chats">
          ←
        </a>
        {chat && <Avatar url={chat.avatar_url} name={title} />}
        <div class="grow">
          <h1>{title}</h1>
          <LiveBadge state={live} />
        </div>
        <div class="tools" role="toolbar" aria-label="Chat tools">
          <button
            type="button"
            aria-pressed={panel === 'calendar'}
            onClick={() => setPanel(panel === 'calendar' ? null : 'calendar')}
          >
            Jump to date
          </button>
          <button
            type="button"
            aria-pressed={panel === 'gallery'}
            onClick={() => setPanel(panel === 'gallery' ? null : 'gallery')}
          >
            Media
          </button>
          {!props.noDownload && (
            <button
              type="button"
              aria-pressed={panel === 'export'}
              onClick={() => setPanel(panel === 'export' ? null : 'export')}
            >
              Export
            </button>
          )}
          <button
            type="button"
            aria-pressed={panel === 'info'}
            onClick={() => setPanel(panel === 'info' ? null : 'info')}
          >
            Info
          </button>
        </div>
      </header>
      {pinned[0] && (
        <button type="button" class="pinned-banner" onClick={() => void loadAround(pinned[0]?.id ?? 0)}>
          <span class="muted small">📌 Pinned{pinned.length > 1 ? ` (${pinned.length})` : ''}</span>{' '}
          {(pinned[0].text ?? '').slice(0, 120) || 'Media'}
        </button>
      )}
      {topics.length > 0 && (
        <nav class="topics" aria-label="Topics">
          <button type="button" aria-pressed={topic === null} onClick={() => setTopic(null)}>
            All topics
          </button>
          {topics
            .filter((t) => !t.is_hidden)
            .map((t) => (
              <button key={t.id} type="button" aria-pressed={topic === t.id} onClick={() => setTopic(t.id)}>
                {t.icon_emoji ?? '#'} {t.title}
                {t.is_closed ? ' (closed)' : ''}
              </button>
            ))}
        </nav>
      )}
      {panel === 'calendar' && (
        <Calendar
          chatRef={ref}
          topic={topic}
          newest={chat?.last_message_date ?? messages.at(-1)?.date ?? null}
          onPick={(id) => void loadAround(id)}
        />
      )}
      {panel === 'gallery' && (
        <Gallery chatRef={ref} noDownload={props.noDownload} onJump={(id) => void loadAround(id)} />
      )}
      {panel === 'export' && <ExportPanel chatRef={ref} title={title} />}
      {panel === 'info' && <InfoPanel chatRef={ref} />}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling message log must be reachable by keyboard. */}
      <div class="messages" ref={scroller} onScroll={onScroll} role="log" aria-label="Messages" tabIndex={0}>
        {hasOlder && (
          <button type="button" class="more" onClick={() => void loadOlder()}>
            Older messages
          </button>
        )}
        {messages.length === 0 && <p class="muted pad">No messages.</p>}
        {withDays(messages).map((item) =>
          typeof item === 'string' ? (
            <h2 key={`day-${item}`} class="day">
              <span>{formatDay(item)}</span>
            </h2>
          ) : (
            <MessageItem
              key={item.id}
              message={item}
              reply={item.reply_to_msg_id ? byId.get(item.reply_to_msg_id) : undefined}
              chatRef={ref}
              noDownload={props.noDownload}
              transcription={transcription}
              topics={topics}
              // A channel's post without an author is the channel's own.
              author={chat?.type === 'channel' ? title : null}
              onVersions={setVersionsOf}
              onJump={(id) => (byId.has(id) ? setFocusId(id) : void loadAround(id))}
            />
          ),
        )}
        {hasNewer && (
          <button type="button" class="more" onClick={() => void loadLatest()}>
            Newest messages
          </button>
        )}
      </div>
      {versionsOf && <Versions chatRef={ref} message={versionsOf} onClose={() => setVersionsOf(null)} />}
    </section>
  );
}

function LiveBadge(props: { state: LiveState }) {
  const text: Record<LiveState, string> = {
    connecting: 'Connecting…',
    live: 'Live',
    reconnecting: 'Reconnecting…',
    denied: 'Live updates unavailable',
    revoked: 'Session ended; sign in again',
  };
  return (
    <span class={`live state-${props.state}`} role="status" data-testid="live-state">
      {text[props.state]}
    </span>
  );
}

function withDays(messages: Message[]): (Message | string)[] {
  const out: (Message | string)[] = [];
  let last = '';
  for (const m of messages) {
    const day = dayOf(m.date);
    if (day !== last) {
      out.push(day);
      last = day;
    }
    out.push(m);
  }
  return out;
}

function quotedText(message: Message, reply: Message | undefined): string {
  const text = reply?.text ?? reply?.poll?.question ?? message.reply_to_text ?? '';
  if (text.trim()) return text.slice(0, 100);
  const type = reply?.media?.type ?? message.reply_to_media_type;
  return type ? mediaWords(type) : 'Message';
}

/** What a reply quotes when the quoted message has no text: its kind in the document's words. */
const mediaWords = (type: string) => MessageMediaTypeLabels[type] ?? 'Media';

type Poll = NonNullable<Message['poll']>;

/** A poll's kind as a chat app names it: "Anonymous poll", "Quiz", "Final results" once closed. */
function pollKind(poll: Poll): string {
  if (poll.closed) return 'Final results';
  const kind = poll.quiz ? 'quiz' : 'poll';
  if (poll.anonymous === null) return poll.quiz ? 'Quiz' : 'Poll';
  return `${poll.anonymous ? 'Anonymous' : 'Public'} ${kind}`;
}

function PollView(props: { poll: Poll }) {
  const { poll } = props;
  const counted = poll.options.some((o) => o.voters !== null);
  const total = poll.total_voters ?? poll.options.reduce((sum, o) => sum + (o.voters ?? 0), 0);
  const votes = (n: number) => `${n} vote${n === 1 ? '' : 's'}`;
  return (
    <figure class="poll">
      <figcaption>
        <strong class="poll-question">{poll.question}</strong>
        <span class="muted small">{pollKind(poll)}</span>
      </figcaption>
      <ul>
        {poll.options.map((o, i) => {
          const share = counted && total > 0 ? Math.round(((o.voters ?? 0) / total) * 100) : null;
          return (
            <li key={`${i}-${o.text}`} class={o.chosen ? 'chosen' : ''}>
              <span class="poll-option">
                {o.text}
                {o.chosen && <span class="visually-hidden"> (your vote)</span>}
                {o.correct && <span class="badge">right answer</span>}
              </span>
              {share !== null && (
                <span class="poll-share small" title={votes(o.voters ?? 0)}>
                  {share}%
                </span>
              )}
              {share !== null && <span class="poll-bar" style={{ width: `${share}%` }} aria-hidden="true" />}
            </li>
          );
        })}
      </ul>
      {poll.total_voters !== null && <p class="muted small">{votes(poll.total_voters)}</p>}
    </figure>
  );
}

/** A text field of the message's raw data, or null. */
function rawText(message: Message, key: string): string | null {
  const value = message.raw_data?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * Who a forwarded message came from: the name the desktop app's export wrote (`forwarded_from`, JSON and
 * HTML alike), else the platform's (`fwd_from`), else the original's id; null for a message that was not
 * forwarded.
 */
function forwardName(message: Message): string | null {
  const raw = message.raw_data ?? {};
  const fwd = raw.fwd_from as Record<string, unknown> | undefined;
  const named = [raw.forwarded_from, fwd?.from_name, fwd?.fromName].find(
    (name): name is string => typeof name === 'string' && name.trim() !== '',
  );
  if (named) return named;
  if (message.forward_from_id !== null) return `#${message.forward_from_id}`;
  return fwd || 'forwarded_from' in raw ? 'someone' : null;
}

function MessageItem(props: {
  message: Message;
  reply: Message | undefined;
  chatRef: string;
  noDownload: boolean;
  transcription: boolean;
  topics: Topic[];
  /** Who a message without a sender is from (a channel's post: the channel), else "Unknown". */
  author: string | null;
  onVersions: (m: Message) => void;
  onJump: (id: number) => void;
}) {
  const m = props.message;
  const sender = m.sender_name ?? (props.author || 'Unknown');
  if (m.service)
    return (
      <div class="service" data-message={m.id} tabIndex={-1}>
        <span>{m.service.text}</span>
      </div>
    );
  const forwarded = forwardName(m);
  // The desktop export's bot a message was sent through and a channel post's signature (raw data).
  const viaBot = rawText(m, 'via_bot');
  const signature = rawText(m, 'author');
  const topic = m.reply_to_top_id ? props.topics.find((t) => t.id === m.reply_to_top_id) : undefined;
  return (
    <article
      class={`message ${m.is_outgoing ? 'out' : 'in'} ${m.is_deleted ? 'deleted' : ''}`}
      data-message={m.id}
      tabIndex={-1}
      aria-label={`${sender} at ${formatTime(m.date)}`}
    >
      <Avatar url={m.sender_avatar_url} name={m.sender_name ?? (props.author || '?')} size={32} />
      <div class="bubble">
        <div class="meta">
          <strong>{sender}</strong>
          {viaBot && <span class="muted small">via {viaBot}</span>}
          {topic && <span class="badge">{topic.title}</span>}
          {m.is_pinned && <span class="badge">📌 pinned</span>}
        </div>
        {forwarded && <p class="forwarded muted small">Forwarded from {forwarded}</p>}
        {m.reply_to_msg_id !== null && (
          <button type="button" class="reply" onClick={() => props.onJump(m.reply_to_msg_id ?? 0)}>
            <span class="muted small">Reply to {props.reply?.sender_name ?? 'a message'}</span>
            <span class="reply-text">{quotedText(m, props.reply)}</span>
          </button>
        )}
        {m.media && <MediaView media={m.media} chatRef={props.chatRef} noDownload={props.noDownload} />}
        {m.poll && <PollView poll={m.poll} />}
        {m.attachment && <p class={`attachment ${m.attachment.kind}`}>{m.attachment.text}</p>}
        {m.text && (
          <p class="text">
            <RichText text={m.text} raw={m.raw_data} />
          </p>
        )}
        <Transcripts
          message={m}
          chatRef={props.chatRef}
          enabled={props.transcription}
          noDownload={props.noDownload}
        />
        {m.reactions.length > 0 && (
          <ul class="reactions" aria-label="Reactions">
            {m.reactions.map((r) => {
              const shown = reactionShown(r.emoji);
              return (
                <li key={r.emoji} title={shown.name}>
                  <span role="img" aria-label={shown.name}>
                    {shown.glyph}
                  </span>{' '}
                  <span class="small">{r.count}</span>
                </li>
              );
            })}
          </ul>
        )}
        <div class="foot muted small">
          {m.is_deleted && (
            <span class="deleted-mark">Deleted {m.deleted_at ? formatDateTime(m.deleted_at) : ''}</span>
          )}
          {m.edit_date && (
            <button type="button" class="link small" onClick={() => props.onVersions(m)}>
              edited
            </button>
          )}
          {signature && <span class="signature">{signature}</span>}
          <time dateTime={m.date}>{formatTime(m.date)}</time>
        </div>
      </div>
    </article>
  );
}

type Version = { text: string | null; date: string };

function Versions(props: { chatRef: string; message: Message; onClose: () => void }) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
    api
      .GET('/api/chats/{chat_ref}/messages/{message_id}/versions', {
        params: { path: { chat_ref: props.chatRef, message_id: props.message.id } },
      })
      .then((r) => setVersions(r.data ?? []));
  }, []);
  return (
    <dialog ref={dialog} class="panel-dialog" onClose={props.onClose} aria-labelledby="versions-title">
      <h2 id="versions-title">Earlier versions</h2>
      <p>
        <strong>Now:</strong> {props.message.text}
      </p>
      {versions === null ? (
        <p>Loading…</p>
      ) : versions.length === 0 ? (
        <p class="muted">No earlier version was kept.</p>
      ) : (
        <ol class="versions">
          {versions.map((v) => (
            <li key={`${v.date}-${v.text}`}>
              <span class="muted small">{formatDateTime(v.date)}</span>
              <p>{v.text}</p>
            </li>
          ))}
        </ol>
      )}
      <button type="button" onClick={() => dialog.current?.close()}>
        Close
      </button>
    </dialog>
  );
}

function Calendar(props: {
  chatRef: string;
  topic: number | null;
  /** When the chat's newest message was sent: the calendar opens on its month. */
  newest: string | null;
  onPick: (id: number) => void;
}) {
  const [month, setMonth] = useState(() => dayOf(props.newest ?? new Date().toISOString()).slice(0, 7));
  const [days, setDays] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api
      .GET('/api/chats/{chat_ref}/messages/dates', {
        params: {
          path: { chat_ref: props.chatRef },
          query: { month, timezone: timeZone(), ...(props.topic !== null && { topic_id: props.topic }) },
        },
      })
      .then((r) => setDays(new Set(r.data?.dates ?? [])));
  }, [month, props.topic]);
  const [year = 2000, mon = 1] = month.split('-').map(Number);
  const first = new Date(Date.UTC(year, mon - 1, 1));
  const count = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  const lead = (first.getUTCDay() + 6) % 7;
  const shift = (delta: number) => {
    const d = new Date(Date.UTC(year, mon - 1 + delta, 1));
    setMonth(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  };
  const pick = async (day: string) => {
    const r = await api.GET('/api/chats/{chat_ref}/messages/by-date', {
      params: {
        path: { chat_ref: props.chatRef },
        query: { date: day, timezone: timeZone(), ...(props.topic !== null && { topic_id: props.topic }) },
      },
    });
    if (r.data) props.onPick(r.data.id);
    else setError(detail(r));
  };
  const cells: ComponentChildren[] = [];
  for (let i = 0; i < lead; i++) cells.push(<span key={`lead-${i}`} />);
  for (let d = 1; d <= count; d++) {
    const day = `${month}-${String(d).padStart(2, '0')}`;
    cells.push(
      <button
        key={day}
        type="button"
        disabled={!days.has(day)}
        onClick={() => void pick(day)}
        aria-label={formatDay(day)}
      >
        {d}
      </button>,
    );
  }
  return (
    <section class="side-panel calendar" aria-label="Jump to date">
      <div class="row">
        <button type="button" onClick={() => shift(-1)} aria-label="Previous month">
          ‹
        </button>
        <label for="month" class="visually-hidden">
          Month
        </label>
        <input
          id="month"
          type="month"
          value={month}
          onChange={(e) => e.currentTarget.value && setMonth(e.currentTarget.value)}
        />
        <button type="button" onClick={() => shift(1)} aria-label="Next month">
          ›
        </button>
      </div>
      <div class="grid7" aria-hidden="false">
        {['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'].map((d) => (
          <span key={d} class="muted small">
            {d}
          </span>
        ))}
        {cells}
      </div>
      {days.size === 0 && <p class="muted small">No messages this month.</p>}
      {error && <Notice kind="error">{error}</Notice>}
    </section>
  );
}

type GalleryItem = Schemas['MediaGalleryItem'];

function Gallery(props: { chatRef: string; noDownload: boolean; onJump: (messageId: number) => void }) {
  const [items, setItems] = useState<GalleryItem[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [types, setTypes] = useState('');
  const [open, setOpen] = useState<GalleryItem | null>(null);
  const load = async (before?: string) => {
    const r = await api.GET('/api/chats/{chat_ref}/media', {
      params: {
        path: { chat_ref: props.chatRef },
        query: { limit: 60, ...(types && { types }), ...(before && { before_id: before }) },
      },
    });
    if (!r.data) return;
    setItems((current) => (before ? [...current, ...r.data.items] : r.data.items));
    setHasMore(r.data.has_more);
  };
  useEffect(() => {
    api
      .GET('/api/chats/{chat_ref}/media/counts', { params: { path: { chat_ref: props.chatRef } } })
      .then((r) => setCounts(r.data ?? {}));
  }, []);
  useEffect(() => void load(), [types]);
  return (
    <section class="side-panel gallery" aria-label="Media of this chat">
      <div class="row">
        <label for="media-type">Type</label>
        <select id="media-type" value={types} onChange={(e) => setTypes(e.currentTarget.value)}>
          <option value="">All ({Object.values(counts).reduce((a, b) => a + b, 0)})</option>
          {Object.entries(counts).map(([type, n]) => (
            <option key={type} value={type}>
              {type} ({n})
            </option>
          ))}
        </select>
      </div>
      <ul class="grid">
        {items.map((item) => (
          <li key={item.id}>
            {item.thumb_url && !props.noDownload ? (
              <button
                type="button"
                class="thumb"
                onClick={() => (item.type === 'photo' ? setOpen(item) : props.onJump(item.message_id))}
              >
                <img
                  src={item.thumb_url}
                  alt={`${item.type} from ${formatDateTime(item.date)}`}
                  loading="lazy"
                  width={96}
                  height={96}
                />
              </button>
            ) : (
              <button
                type="button"
                class="tile"
                title={item.file_name ?? undefined}
                onClick={() => props.onJump(item.message_id)}
              >
                {mediaWords(item.type)}
                <span class="muted small">{item.file_name ?? ''}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {items.length === 0 && <p class="muted small">No media.</p>}
      {hasMore && (
        <button type="button" onClick={() => void load(items.at(-1)?.id)}>
          More
        </button>
      )}
      {open?.media_url && <Lightbox src={open.media_url} alt={open.type} onClose={() => setOpen(null)} />}
    </section>
  );
}

function ExportPanel(props: { chatRef: string; title: string }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const run = async (event: Event) => {
    event.preventDefault();
    setMessage(null);
    const r = await api.GET('/api/chats/{chat_ref}/export', {
      params: { path: { chat_ref: props.chatRef }, query: { ...(from && { from }), ...(to && { to }) } },
      parseAs: 'blob',
    });
    if (!r.data) {
      setMessage(`Not exported: ${detail(r)}`);
      return;
    }
    const url = URL.createObjectURL(r.data);
    const link = document.createElement('a');
    link.href = url;
    link.download = `${props.title || 'chat'}_export.json`;
    link.click();
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setMessage('Export downloaded.');
  };
  return (
    <form class="side-panel" onSubmit={run} aria-label="Export messages">
      <div class="row">
        <div class="field">
          <label for="export-from">From</label>
          <input id="export-from" type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="export-to">To (whole day)</label>
          <input id="export-to" type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </div>
        <button type="submit" class="primary">
          Export JSON
        </button>
      </div>
      {message && <Notice>{message}</Notice>}
    </form>
  );
}

function InfoPanel(props: { chatRef: string }) {
  const [stats, setStats] = useState<Record<string, unknown> | null>(null);
  useEffect(() => {
    api
      .GET('/api/chats/{chat_ref}/stats', { params: { path: { chat_ref: props.chatRef } } })
      .then((r) => setStats(r.data ?? null));
  }, []);
  const s = stats as {
    messages?: number;
    media_files?: number;
    total_size_bytes?: number;
    first_message_date?: string;
    last_message_date?: string;
  } | null;
  return (
    <section class="side-panel" aria-label="Chat information">
      {s ? (
        <dl class="facts">
          <dt>Messages</dt>
          <dd>{s.messages}</dd>
          <dt>Media files</dt>
          <dd>
            {s.media_files} ({formatBytes(s.total_size_bytes ?? 0)})
          </dd>
          <dt>First message</dt>
          <dd>{formatDateTime(s.first_message_date)}</dd>
          <dt>Last message</dt>
          <dd>{formatDateTime(s.last_message_date)}</dd>
        </dl>
      ) : (
        <p>Loading…</p>
      )}
      <PushToggle chatRef={props.chatRef} />
    </section>
  );
}
