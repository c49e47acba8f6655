import { useEffect, useState } from 'preact/hooks';
import { api, chatTitle, type Schemas } from '../api';

export type AdminChat = Schemas['AdminChat'];

export function useAdminChats(): AdminChat[] {
  const [chats, setChats] = useState<AdminChat[]>([]);
  useEffect(() => {
    api.GET('/api/admin/chats').then((r) => setChats(r.data?.chats ?? []));
  }, []);
  return chats;
}

/** A chat's title by ref, from the administration's chat list (the ref while the list loads). */
export function chatTitleOf(chats: AdminChat[]): (ref: string) => string {
  return (ref) => {
    const chat = chats.find((c) => c.ref === ref);
    return chat ? chatTitle(chat) : ref;
  };
}
