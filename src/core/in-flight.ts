// Counts the commands in flight, so that a shutdown can wait for them (with a time limit).

interface InFlight {
  enter(): void;
  leave(): void;
  count(): number;
  /** Resolves true once nothing is in flight, or false when `timeoutMs` runs out first. */
  settled(timeoutMs: number): Promise<boolean>;
}

export function createInFlight(): InFlight {
  let active = 0;
  const waiters = new Set<() => void>();
  return {
    enter() {
      active += 1;
    },
    leave() {
      active -= 1;
      if (active === 0) for (const wake of waiters) wake();
    },
    count: () => active,
    settled(timeoutMs) {
      if (active === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(true);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          resolve(false);
        }, timeoutMs);
        waiters.add(wake);
      });
    },
  };
}
