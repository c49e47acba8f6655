/** A chat: its messages as a log the reader scrolls through, its tools, its live updates. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ServerMessage } from '../../../generated/archive-updates/frames';
import { Notice } from '../../shared/notice';
import { api, chatTitle, type Message } from '../api';
import { Avatar } from '../chats/avatar';
import { useLiveUpdates } from '../live';
import { notifyInTab } from '../push';
import { dayOf, formatDay } from '../time';
import { Calendar } from './calendar';
import { ExportPanel } from './export-panel';
import { Gallery } from './gallery';
import { InfoPanel } from './info-panel';
import { LiveBadge } from './live-badge';
import { MessageItem } from './message-item';
import { ChatTools, type Panel } from './tools';
import { TopicBar } from './topic-bar';
import { useChatFacts } from './use-chat-facts';
import { useChatMessages } from './use-chat-messages';
import { useReadingPlace } from './use-reading-place';
import { Versions } from './versions';

export function ChatView(props: { chatRef: string; jumpTo?: number; noDownload: boolean; master: boolean }) {
  const ref = props.chatRef;
  const { chat, missing, topics, pinned, transcription, refreshPinned } = useChatFacts(ref);
  const [topic, setTopic] = useState<number | null>(null);
  const [panel, setPanel] = useState<Panel>(null);
  const [versionsOf, setVersionsOf] = useState<Message | null>(null);
  const held = useChatMessages(api, ref, topic);
  const { messages, hasOlder, hasNewer } = held;
  const place = useReadingPlace(messages, held.focusId, () => held.setFocusId(null));
  const { scroller } = place;

  const loadLatest = () => {
    place.toBottom();
    return held.latest();
  };
  const loadAround = (id: number) => {
    place.stay();
    return held.around(id);
  };
  const loadOlder = () => held.older(place.holdAbove);
  const loadNewer = () => {
    place.stay();
    return held.newer();
  };

  useEffect(() => {
    if (props.jumpTo && topic === null) void loadAround(props.jumpTo);
    else void loadLatest();
  }, [ref, topic, props.jumpTo]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    if (el.scrollTop < 300) void loadOlder();
    if (place.nearEnd(300)) void loadNewer();
  };

  const live = useLiveUpdates(
    ref,
    useCallback(
      (event: ServerMessage) => {
        if (event.type === 'new_message') {
          void notifyInTab(chat ? chatTitle(chat) : 'New message', event.message);
          if (place.nearEnd(80)) place.toBottom();
          else place.stay();
        } else place.stay();
        if (event.type === 'pin') void refreshPinned();
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
        <ChatTools panel={panel} onPanel={setPanel} noDownload={props.noDownload} />
      </header>
      {pinned[0] && (
        <button type="button" class="pinned-banner" onClick={() => void loadAround(pinned[0]?.id ?? 0)}>
          <span class="muted small">📌 Pinned{pinned.length > 1 ? ` (${pinned.length})` : ''}</span>{' '}
          {(pinned[0].text ?? '').slice(0, 120) || 'Media'}
        </button>
      )}
      {topics.length > 0 && <TopicBar topics={topics} topic={topic} onTopic={setTopic} />}
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
        <Days
          messages={messages}
          item={(item) => (
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
              onJump={(id) => (byId.has(id) ? held.setFocusId(id) : void loadAround(id))}
            />
          )}
        />
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

/** The messages under a heading for each day they were sent on ("No messages." for none). */
function Days(props: { messages: Message[]; item: (message: Message) => ComponentChildren }) {
  if (props.messages.length === 0) return <p class="muted pad">No messages.</p>;
  const out: ComponentChildren[] = [];
  let last = '';
  for (const m of props.messages) {
    const day = dayOf(m.date);
    if (day !== last) {
      out.push(
        <h2 key={`day-${day}`} class="day">
          <span>{formatDay(day)}</span>
        </h2>,
      );
      last = day;
    }
    out.push(props.item(m));
  }
  return <>{out}</>;
}
