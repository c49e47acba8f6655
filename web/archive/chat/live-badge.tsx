import type { LiveState } from '../live';

export function LiveBadge(props: { state: LiveState }) {
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
