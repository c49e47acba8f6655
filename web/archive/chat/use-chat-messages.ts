/**
 * A chat view's messages in its state (pages.ts does the work): one load at a time, the message to bring
 * into view after a jump, and the live updates merged in.
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import type { ServerMessage } from '../../../generated/archive-updates/frames';
import { type ArchiveApi, applyLive, ChatPages, merge, type Stretch } from './pages';

export function useChatMessages(api: ArchiveApi, chatRef: string, topic: number | null) {
  const pages = useMemo(() => new ChatPages(api, chatRef, topic), [api, chatRef, topic]);
  const [stretch, setStretch] = useState<Stretch>({ messages: [], hasOlder: false, hasNewer: false });
  const [focusId, setFocusId] = useState<number | null>(null);
  const busy = useRef(false);

  const once = async (work: () => Promise<void>) => {
    busy.current = true;
    try {
      await work();
    } finally {
      busy.current = false;
    }
  };

  return {
    ...stretch,
    focusId,
    setFocusId,
    /** The newest page. */
    latest: () => once(async () => setStretch(await pages.latest())),
    /** The pages around message `id`, which is then brought into view. */
    around: (id: number) =>
      once(async () => {
        setStretch(await pages.around(id));
        setFocusId(id);
      }),
    /** One more page before the oldest held; `starting` runs just before it is asked for. */
    older: async (starting?: () => void) => {
      const oldest = stretch.messages[0];
      if (busy.current || !stretch.hasOlder || !oldest) return;
      await once(async () => {
        starting?.();
        const step = await pages.older(oldest);
        setStretch((s) => ({ ...s, messages: merge(s.messages, step.messages), hasOlder: step.more }));
      });
    },
    /** One more page after the newest held. */
    newer: async () => {
      const newest = stretch.messages.at(-1);
      if (busy.current || !stretch.hasNewer || !newest) return;
      await once(async () => {
        const step = await pages.newer(newest);
        setStretch((s) => ({ ...s, messages: merge(s.messages, step.messages), hasNewer: step.more }));
      });
    },
    /** A live event merged in; a transcript's message asked for again. */
    live: (event: ServerMessage) => {
      setStretch((s) => ({ ...s, messages: applyLive(s.messages, event, !s.hasNewer) }));
      if (event.type === 'transcript')
        void pages.message(event.message_id).then((fresh) => {
          if (fresh)
            setStretch((s) => ({ ...s, messages: s.messages.map((m) => (m.id === fresh.id ? fresh : m)) }));
        });
    },
  };
}
