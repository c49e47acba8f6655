import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ServerMessage } from '../../../generated/archive-updates/frames';
import { Notice } from '../../shared/notice';
import { api, type Chat, chatTitle, detail, type Message, type Topic } from '../api';
import { Avatar } from '../chats';
import { useLiveUpdates } from '../live';
import { notifyInTab } from '../push';
import { dayOf, formatDay } from '../time';
import { Calendar } from './calendar';
import { ExportPanel } from './export-panel';
import { Gallery } from './gallery';
import { InfoPanel } from './info-panel';
import { LiveBadge } from './live-badge';
import { MessageItem } from './message-item';
import { useChatMessages } from './use-chat-messages';
import { Versions } from './versions';

type Panel = 'calendar' | 'gallery' | 'export' | 'info' | null;

export function ChatView(props: { chatRef: string; jumpTo?: number; noDownload: boolean; master: boolean }) {
  const ref = props.chatRef;
  const [chat, setChat] = useState<Chat | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [topics, setTopics] = useState<Topic[]>([]);
  const [topic, setTopic] = useState<number | null>(null);
  const [pinned, setPinned] = useState<Message[]>([]);
  const [panel, setPanel] = useState<Panel>(null);
  const [versionsOf, setVersionsOf] = useState<Message | null>(null);
  const [transcription, setTranscription] = useState(false);
  const held = useChatMessages(api, ref, topic);
  const { messages, hasOlder, hasNewer, focusId, setFocusId } = held;
  const scroller = useRef<HTMLDivElement>(null);
  const keepBottom = useRef(true);
  const anchor = useRef<{ height: number; top: number } | null>(null);

  const loadLatest = () => {
    keepBottom.current = true;
    return held.latest();
  };
  const loadAround = (id: number) => {
    keepBottom.current = false;
    return held.around(id);
  };
  // Older messages go above: the reader's place is kept by the height they add.
  const loadOlder = () =>
    held.older(() => {
      const el = scroller.current;
      if (el) anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      keepBottom.current = false;
    });
  const loadNewer = () => {
    keepBottom.current = false;
    return held.newer();
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
        if (event.type === 'new_message') {
          void notifyInTab(chat ? chatTitle(chat) : 'New message', event.message);
          const el = scroller.current;
          keepBottom.current = el ? el.scrollHeight - el.scrollTop - el.clientHeight < 80 : true;
        } else keepBottom.current = false;
        if (event.type === 'pin')
          api
            .GET('/api/chats/{chat_ref}/pinned', { params: { path: { chat_ref: ref } } })
            .then((r) => setPinned(r.data ?? []));
        held.live(event);
      },
      [ref, chat, held.live],
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
