// A command's first answer is owed within 3 s (Discord's deferral, Slack's ack); its work is not.
// Run as soon as it arrives, each command's work delays every request that arrives behind it, so
// under a burst the later first answers wait for all the earlier commands' work. The work therefore
// waits its turn (the dispatcher awaits it once its checks have passed and the adapter has sent
// its first answer): one command starts per event-loop turn, in the check phase, after the poll
// phase has read the requests already waiting and sent their first answers. It buys the row
// "signed /weather → deferral, 200 concurrent" of `npm run bench -- interactions`
// (docs/PERFORMANCE.md).
// The timers are node:timers' own, not the global ones a test's fake clock replaces: a turn is the
// event loop's, not the clock's.
import { setImmediate } from 'node:timers';

interface Turns {
  /** Resolves in the order asked, one per event-loop turn. */
  next(): Promise<void>;
}

export function createTurns(): Turns {
  // A release is scheduled exactly while someone waits: the first to wait schedules it, and each
  // release schedules the next while any remain.
  const waiting: Array<() => void> = [];
  function release(): void {
    waiting.shift()?.();
    if (waiting.length > 0) setImmediate(release);
  }
  return {
    next() {
      return new Promise<void>((resolve) => {
        if (waiting.push(resolve) === 1) setImmediate(release);
      });
    },
  };
}

const processTurns = createTurns();

/** The process's one queue: every adapter's commands share the one event loop. */
export function nextTurn(): Promise<void> {
  return processTurns.next();
}
