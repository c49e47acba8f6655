import type { SessionRole, Visibility } from '../store/store';

/** Who is asking, after authentication, and what they may see. */
export interface Principal {
  via: 'session' | 'proxy' | 'anonymous';
  /** Null for an anonymous caller. */
  role: SessionRole | null;
  username: string | null;
  allowedAccounts: number[] | null;
  allowedChatRefs: string[] | null;
  noDownload: boolean;
  /** The `viewer_auth` cookie value of a session login. */
  sessionKey: string | null;
}

export const isMaster = (p: Principal) => p.role === 'master';

/** The operator's `DISPLAY_CHAT_IDS` combined with the login's grants. */
export function visibilityOf(p: Principal, displayChatIds: number[] | null): Visibility {
  return { accounts: p.allowedAccounts, chatRefs: p.allowedChatRefs, displayChatIds };
}

export const ANONYMOUS: Principal = Object.freeze({
  via: 'anonymous',
  role: null,
  username: null,
  allowedAccounts: null,
  allowedChatRefs: null,
  noDownload: false,
  sessionKey: null,
});
