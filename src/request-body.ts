// Reading a request body on herald's public server, bounded three ways: by the route's limit for the
// payload it can receive (413, told by Content-Length before anything is read), by a deadline (408:
// a body trickled in to hold memory is cut off), and by a budget shared by every connection for the
// bodies above a small size (503), so that connections held open cannot add up to more than
// `SMALL_BODY_BYTES` each plus the budget, whatever their number.
import type { IncomingMessage } from 'node:http';

/**
 * A body this small is read without drawing on the budget: a PING or a slash command fits (about
 * 2 kB with a 200-character token). A connection holding one costs about 25 kB resident, most of
 * it Node's own (16.5 kB before any byte; docs/DISCORD-HTTP.md, "Where the memory goes").
 */
export const SMALL_BODY_BYTES = 4 * 1024;
/**
 * The bytes of larger bodies read at once, all connections together: sixteen button presses on the
 * largest message Discord sends, or hundreds on herald's usual ones (a few kB each).
 */
export const LARGE_BODY_BUDGET_BYTES = 4 * 1024 * 1024;
/** The longest a body may take to arrive. */
export const BODY_DEADLINE_MS = 5_000;

type BodyResult = { ok: true; body: Buffer } | { ok: false; status: 400 | 408 | 413 | 503 };

/** Bytes set aside for bodies being read; `take` fails rather than wait. */
export interface BodyBudget {
  take(bytes: number): boolean;
  give(bytes: number): void;
  /** What is set aside now (for tests and the bench). */
  readonly used: number;
}

export function createBodyBudget(bytes = LARGE_BODY_BUDGET_BYTES): BodyBudget {
  let used = 0;
  return {
    take(n) {
      if (used + n > bytes) return false;
      used += n;
      return true;
    },
    give(n) {
      used = Math.max(0, used - n);
    },
    get used() {
      return used;
    },
  };
}

/** Content-Length when the request states one that is a plain number. */
function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  return value !== undefined && /^\d{1,12}$/.test(value) ? Number(value) : undefined;
}

interface ReadLimits {
  maxBytes: number;
  budget: BodyBudget;
  deadlineMs?: number;
}

/**
 * The raw body, or why it was not read. What is set aside is the declared length (a chunked body
 * is counted at the route's limit), returned to the budget once the body is read or given up.
 */
export function readBody(req: IncomingMessage, limits: ReadLimits): Promise<BodyResult> {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > limits.maxBytes)
    return Promise.resolve({ ok: false, status: 413 });
  const reserved = declared ?? limits.maxBytes;
  const isLarge = reserved > SMALL_BODY_BYTES;
  if (isLarge && !limits.budget.take(reserved)) return Promise.resolve({ ok: false, status: 503 });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let isDone = false;
    const finish = (result: BodyResult) => {
      if (isDone) return;
      isDone = true;
      clearTimeout(timer);
      req.off('data', onData);
      if (isLarge) limits.budget.give(reserved);
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, status: 408 }), limits.deadlineMs ?? BODY_DEADLINE_MS);
    timer.unref();
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      // A chunked body may not declare its length; one past its reservation stops here.
      if (size > Math.min(reserved, limits.maxBytes)) {
        finish({ ok: false, status: 413 });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish({ ok: true, body: Buffer.concat(chunks, size) }));
    req.once('error', () => finish({ ok: false, status: 400 }));
    req.once('close', () => finish({ ok: false, status: 400 }));
  });
}
