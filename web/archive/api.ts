/** The viewer's API through the generated client (the session cookie rides along on every call). */
import { createArchiveClient } from '../../generated/archive/client';
import type { components, operations } from '../../generated/archive/types';

export type Schemas = components['schemas'];
export type Chat = Schemas['Chat'];
export type Message = Schemas['Message'];
export type SearchResult = Schemas['SearchResult'];
export type AuthCheck = operations['checkAuth']['responses'][200]['content']['application/json'];
export type Folder =
  operations['listFolders']['responses'][200]['content']['application/json']['folders'][number];
export type Topic =
  operations['listTopics']['responses'][200]['content']['application/json']['topics'][number];
export type Transcript = Schemas['Transcript'];

export const api = createArchiveClient({ baseUrl: window.location.origin, credentials: 'same-origin' });

/** The `{detail}` of an error answer, or the status. */
export function detail(result: { error?: unknown; response: Response }): string {
  const body = result.error as { detail?: unknown } | undefined;
  return typeof body?.detail === 'string' ? body.detail : `HTTP ${result.response.status}`;
}

export function chatTitle(chat: {
  title: string | null;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
}): string {
  return (
    chat.title ||
    [chat.first_name, chat.last_name].filter(Boolean).join(' ') ||
    (chat.username ? `@${chat.username}` : 'Unnamed chat')
  );
}

export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('') || '?';
