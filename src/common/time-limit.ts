/**
 * A signal that aborts with a TimeoutError after `ms`, alone or joined to `signal`.
 *
 * Node's `AbortSignal.any([signal, AbortSignal.timeout(ms)])` can lose its time limit: the timeout signal is
 * held only weakly by the joined one and by its timer, so a garbage collection before it fires takes it,
 * and the request waits forever (nodejs/node#57736; seen as a feed run that never ended under load). Here
 * the timer holds its controller until it fires; it keeps no process alive.
 */
export function timeLimit(ms: number, signal?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ms,
  );
  timer.unref();
  return signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
}
