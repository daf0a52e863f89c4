// The one race between a piece of work and an AbortSignal, used wherever herald stops waiting at a
// deadline or shutdown (the dispatcher, the HTTP core, a scheduled run). A leaf: imports nothing.

/**
 * Settles as `work` does, or rejects with `reason()` as soon as `signal` aborts (at once when it
 * already has). The work itself is not stopped (pass it the signal for that); its late result or
 * failure is dropped, never reported as unhandled.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal, reason: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(reason());
    if (signal.aborted) {
      work.catch(() => undefined);
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
