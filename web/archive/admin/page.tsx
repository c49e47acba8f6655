import { AuditTab } from './audit-tab';
import { SessionsTab } from './sessions-tab';
import { SettingsTab } from './settings-tab';
import { StatusTab } from './status-tab';
import { TokensTab } from './tokens-tab';
import { ViewersTab } from './viewers-tab';

const TABS: [string, string][] = [
  ['status', 'Status'],
  ['viewers', 'Viewers'],
  ['tokens', 'Share links'],
  ['sessions', 'Sessions'],
  ['audit', 'Audit log'],
  ['settings', 'Settings'],
];

/** The administration: a tab per concern, the tab in the address. */
export function AdminPage(props: { tab: string }) {
  return (
    <section class="admin" aria-labelledby="admin-title">
      <header class="chat-head">
        <a href="#/" class="back" aria-label="Back to chats">
          ←
        </a>
        <h1 id="admin-title">Administration</h1>
      </header>
      <nav class="tabs" aria-label="Administration">
        {TABS.map(([id, label]) => (
          <a key={id} href={`#/admin/${id}`} aria-current={props.tab === id ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <div class="admin-body">
        {props.tab === 'status' && <StatusTab />}
        {props.tab === 'viewers' && <ViewersTab />}
        {props.tab === 'tokens' && <TokensTab />}
        {props.tab === 'sessions' && <SessionsTab />}
        {props.tab === 'audit' && <AuditTab />}
        {props.tab === 'settings' && <SettingsTab />}
      </div>
    </section>
  );
}
