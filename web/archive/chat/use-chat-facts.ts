/** What a chat view shows beside its messages: the chat, its topics, its pinned messages, whether transcripts can be asked for. */
import { useEffect, useState } from 'preact/hooks';
import { api, type Chat, detail, type Message, type Topic } from '../api';

export function useChatFacts(chatRef: string) {
  const [chat, setChat] = useState<Chat | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [topics, setTopics] = useState<Topic[]>([]);
  const [pinned, setPinned] = useState<Message[]>([]);
  const [transcription, setTranscription] = useState(false);
  const path = { params: { path: { chat_ref: chatRef } } };
  const refreshPinned = () =>
    api.GET('/api/chats/{chat_ref}/pinned', path).then((r) => setPinned(r.data ?? []));

  useEffect(() => {
    setMissing(null);
    api.GET('/api/chats/{chat_ref}', path).then((r) => {
      if (!r.data) {
        setMissing(detail(r));
        return;
      }
      setChat(r.data);
      if (r.data.is_forum)
        api.GET('/api/chats/{chat_ref}/topics', path).then((t) => setTopics(t.data?.topics ?? []));
    });
    void refreshPinned();
    api
      .GET('/api/transcription/status')
      .then((r) => setTranscription(Boolean(r.data?.enabled && r.data.configured)));
  }, [chatRef]);

  return { chat, missing, topics, pinned, transcription, refreshPinned };
}
