// The console's ordered output: each command line gets a place in the queue when it is read, its
// work runs with up to `concurrency` others, and reply blocks are printed strictly in input order
// (a later line that answers first waits for the ones before it). A line that changes state
// (`/schedule add`) is a barrier: it starts once every line before it has finished, and the lines
// after it start once it has, so `/schedule list` below an add always sees it.

/** A command line waiting for its reply block. */
export interface PendingReply {
  readonly line: string;
  block?: string;
}

interface ReplyQueue {
  /** Queues `work` for `line`; work sets `entry.block`. An `exclusive` line runs alone, in order. */
  add(line: string, work: (entry: PendingReply) => Promise<void>, exclusive?: boolean): void;
  /** Nothing queued, running or waiting to print. */
  isIdle(): boolean;
}

interface ReplyQueueOptions {
  concurrency: number;
  /** Prints one answered line, in input order. */
  print(line: string, block: string): void;
  /** Called after each piece of work settles and its ready blocks are printed. */
  onSettled(): void;
}

export function createReplyQueue(opts: ReplyQueueOptions): ReplyQueue {
  const concurrency = Math.max(1, opts.concurrency);
  const pending: PendingReply[] = [];
  const waiting: { run: () => Promise<void>; exclusive: boolean }[] = [];
  let running = 0;
  let isExclusiveRunning = false;

  function flush(): void {
    while (pending[0]?.block !== undefined) {
      const { line, block = '' } = pending.shift()!;
      opts.print(line, block);
    }
    opts.onSettled();
  }

  function pump(): void {
    while (running < concurrency && waiting.length > 0 && !isExclusiveRunning) {
      const next = waiting[0]!;
      if (next.exclusive && running > 0) return; // a barrier waits for every line before it
      waiting.shift();
      running += 1;
      isExclusiveRunning = next.exclusive;
      void next.run().finally(() => {
        running -= 1;
        if (next.exclusive) isExclusiveRunning = false;
        pump();
        flush();
      });
    }
  }

  return {
    add(line, work, exclusive = false) {
      const entry: PendingReply = { line };
      pending.push(entry);
      waiting.push({ run: () => work(entry), exclusive });
      pump();
    },
    isIdle: () => pending.length === 0 && running === 0 && waiting.length === 0,
  };
}
