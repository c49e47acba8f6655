import { Notice } from '../../shared/notice';
import { detail } from '../api';

export type Message = { kind: 'ok' | 'error'; text: string } | null;

/** The outcome of an administration call: `ok` on success, the server's `detail` otherwise. */
export const outcome = (r: { data?: unknown; error?: unknown; response: Response }, ok: string): Message =>
  r.data ? { kind: 'ok', text: ok } : { kind: 'error', text: detail(r) };

/** An administration call's outcome, said as a notice. */
export function Outcome(props: { message: Message }) {
  if (!props.message) return null;
  return <Notice kind={props.message.kind}>{props.message.text}</Notice>;
}
