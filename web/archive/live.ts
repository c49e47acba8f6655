/**
 * Live updates of the open chat over `/ws/updates` (frames typed from the AsyncAPI document): subscribe,
 * keep alive with pings, and reconnect with a growing pause after a drop. A revoked session (close code
 * 4001) stops reconnecting and reports it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ClientMessage, ServerMessage } from '../../generated/archive-updates/frames';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'denied' | 'revoked';

const PING_MS = 25_000;
const MAX_PAUSE_MS = 30_000;

export function useLiveUpdates(chatRef: string, onEvent: (event: ServerMessage) => void): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    let socket: WebSocket | undefined;
    let stopped = false;
    let attempt = 0;
    let ping: number | undefined;
    let retry: number | undefined;
    const send = (message: ClientMessage) => socket?.send(JSON.stringify(message));
    const connect = () => {
      const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ws/updates`;
      socket = new WebSocket(url);
      socket.onopen = () => {
        attempt = 0;
        send({ action: 'subscribe', chat_ref: chatRef });
        ping = window.setInterval(() => send({ action: 'ping' }), PING_MS);
      };
      socket.onmessage = (event) => {
        let frame: ServerMessage;
        try {
          frame = JSON.parse(String(event.data)) as ServerMessage;
        } catch {
          return;
        }
        if (frame.type === 'subscribed') setState('live');
        else if (frame.type === 'subscribe_denied') setState('denied');
        else if (
          frame.type !== 'pong' &&
          frame.type !== 'unsubscribed' &&
          frame.type !== 'error' &&
          frame.chat_ref === chatRef
        )
          handler.current(frame);
      };
      socket.onclose = (event) => {
        window.clearInterval(ping);
        if (stopped) return;
        if (event.code === 4001) {
          setState('revoked');
          return;
        }
        setState('reconnecting');
        const pause = Math.min(MAX_PAUSE_MS, 1000 * 2 ** attempt);
        attempt++;
        retry = window.setTimeout(connect, pause);
      };
    };
    connect();
    return () => {
      stopped = true;
      window.clearTimeout(retry);
      window.clearInterval(ping);
      if (socket?.readyState === WebSocket.OPEN) send({ action: 'unsubscribe', chat_ref: chatRef });
      socket?.close();
    };
  }, [chatRef]);
  return state;
}
