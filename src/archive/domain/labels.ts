import type { Account, Chat } from '../store/store';

/**
 * Account labels: the operator's `MSGR_ACCOUNT_<N>_LABEL` when set, otherwise what the archive stored
 * (`default` for the first account, `account<N>` for the others).
 */
export function labelAccounts(accounts: Account[], labels: Record<number, string>): Account[] {
  return accounts.map((a) => ({ id: a.id, label: labels[a.id] ?? a.label }));
}

export function labelChat(chat: Chat, labels: Record<number, string>): Chat {
  return Object.keys(labels).length === 0
    ? chat
    : { ...chat, accounts: labelAccounts(chat.accounts, labels) };
}
