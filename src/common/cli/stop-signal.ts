// The kit's stop signal: a long command (a backup, an import) ends its unit of work and exits when asked.

/** An AbortSignal that SIGTERM or SIGINT aborts (once; a second signal is left to the default). */
export function stopSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    },
  };
}
