import { describe, expect, it } from 'vitest';
import { raceAbort } from '../src/abort.ts';

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
