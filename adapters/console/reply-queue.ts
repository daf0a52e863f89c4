// The console's ordered output: each command line gets a place in the queue when it is read, its
// work runs with up to `concurrency` others, and reply blocks are printed strictly in input order
// (a later line that answers first waits for the ones before it).

/** A command line waiting for its reply block. */
export interface PendingReply {
  readonly line: string;
  block?: string;
}

export interface ReplyQueue {
  /** Queues `work` for `line`; work sets `entry.block`. */
  add(line: string, work: (entry: PendingReply) => Promise<void>): void;
  /** Nothing queued, running or waiting to print. */
  isIdle(): boolean;
}

export interface ReplyQueueOptions {
  concurrency: number;
  /** Prints one answered line, in input order. */
  print(line: string, block: string): void;
  /** Called after each piece of work settles and its ready blocks are printed. */
  onSettled(): void;
}

export function createReplyQueue(opts: ReplyQueueOptions): ReplyQueue {
  const concurrency = Math.max(1, opts.concurrency);
  const pending: PendingReply[] = [];
  const waiting: (() => Promise<void>)[] = [];
  let running = 0;

  function flush(): void {
    while (pending[0]?.block !== undefined) {
      const { line, block = '' } = pending.shift()!;
      opts.print(line, block);
    }
    opts.onSettled();
  }

  function pump(): void {
    while (running < concurrency && waiting.length > 0) {
      const task = waiting.shift()!;
      running += 1;
      void task().finally(() => {
        running -= 1;
        pump();
        flush();
      });
    }
  }

  return {
    add(line, work) {
      const entry: PendingReply = { line };
      pending.push(entry);
      waiting.push(() => work(entry));
      pump();
    },
    isIdle: () => pending.length === 0 && running === 0 && waiting.length === 0,
  };
}
