import { describe, expect, it } from 'vitest';
import { createDeadline, raceAbort } from '../src/abort.ts';

const late = new Error('too late');

describe('raceAbort', () => {
  it('settles with the work when it finishes first, and stops listening to the signal', async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(7), controller.signal, () => late)).resolves.toBe(7);
    await expect(raceAbort(Promise.reject(new Error('boom')), controller.signal, () => late)).rejects.toThrow(
      'boom',
    );
    controller.abort();
  });

  it('rejects with the reason as soon as the signal aborts, and drops the late failure', async () => {
    const controller = new AbortController();
    let fail: (err: Error) => void = () => undefined;
    const work = new Promise<number>((_, reject) => (fail = reject));
    const raced = raceAbort(work, controller.signal, () => late);
    controller.abort();
    await expect(raced).rejects.toBe(late);
    fail(new Error('after the deadline')); // would be an unhandled rejection if not dropped
    await Promise.resolve();
  });

  it('rejects at once when the signal has already aborted', async () => {
    const work = Promise.reject(new Error('never seen'));
    await expect(raceAbort(work, AbortSignal.abort(), () => late)).rejects.toBe(late);
  });

  it('turns a non-Error failure into an Error', async () => {
    // A library may reject with a plain string; the race still hands on an Error.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    const work = new Promise<never>((_, reject) => reject('plain text'));
    await expect(raceAbort(work, new AbortController().signal, () => late)).rejects.toThrow('plain text');
  });
});

describe('createDeadline', () => {
  it('aborts with a TimeoutError when its time runs out', async () => {
    const deadline = createDeadline(5);
    await new Promise((r) => setTimeout(r, 30));
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
    deadline.done();
  });

  it("aborts with the parent's reason, at once when the parent has already aborted", () => {
    const parent = new AbortController();
    const deadline = createDeadline(10_000, parent.signal);
    const reason = new Error('reply window closed');
    parent.abort(reason);
    expect(deadline.signal.reason).toBe(reason);
    deadline.done();
    const late = createDeadline(10_000, AbortSignal.abort(reason));
    expect(late.signal.reason).toBe(reason);
    late.done();
  });

  it('never aborts once done, neither by its time nor by the parent', async () => {
    const parent = new AbortController();
    const deadline = createDeadline(5, parent.signal);
    deadline.done();
    await new Promise((r) => setTimeout(r, 30));
    parent.abort();
    expect(deadline.signal.aborted).toBe(false);
  });
});
