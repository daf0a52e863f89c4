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

/** A deadline for one piece of work; `done()` once the work has settled. */
interface Deadline {
  /** Aborts when the time runs out (a TimeoutError, as AbortSignal.timeout's) or the parent aborts (its reason). */
  readonly signal: AbortSignal;
  /** Clears the timer and stops listening to the parent. */
  done(): void;
}

/**
 * One controller and one timer per piece of work, instead of AbortSignal.any([parent,
 * AbortSignal.timeout(ms)]): that pair costs more CPU (weak references, a composite signal) and
 * its timer lingers until it would fire, where this one is cleared as soon as the work settles.
 * Like AbortSignal.timeout, the timer alone does not keep the process alive.
 */
export function createDeadline(timeoutMs: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  const onParentAbort = (): void => controller.abort(parent?.reason);
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    timeoutMs,
  );
  timer.unref();
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
