import { describe, expect, it } from 'vitest';
import { createShare } from '../../src/http/share.ts';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** An answer of `bytes` bytes that mapped to `value`. */
const sized = <T>(value: T, bytes = 100) => ({ value, bytes });
const answer =
  <T>(value: T, bytes = 100) =>
  () =>
    Promise.resolve(sized(value, bytes));

describe('createShare', () => {
  it('runs one load for identical concurrent keys, and a new one once it has settled', async () => {
    const share = createShare(() => 0);
    let loads = 0;
    const gate = deferred<{ value: string; bytes: number }>();
    const load = () => {
      loads++;
      return gate.promise;
    };
    const both = Promise.all([share.get('k', undefined, load), share.get('k', undefined, load)]);
    gate.resolve(sized('v'));
    expect(await both).toEqual(['v', 'v']);
    expect(loads).toBe(1);
    await share.get('k', undefined, answer('again'));
    expect(await share.get('k', undefined, answer('fresh'))).toBe('fresh');
  });

  it('keeps an answer for its TTL by the given clock, telling each hit, and never keeps a failure', async () => {
    let now = 1_000;
    const share = createShare(() => now);
    let hits = 0;
    const onHit = () => hits++;
    await expect(
      share.get('k', 500, () => Promise.reject(new Error('down')), undefined, onHit),
    ).rejects.toThrow('down');
    expect(await share.get('k', 500, answer(1), undefined, onHit)).toBe(1);
    expect(await share.get('k', 500, answer(2), undefined, onHit)).toBe(1);
    expect(hits).toBe(1);
    now += 501;
    expect(await share.get('k', 500, answer(3), undefined, onHit)).toBe(3);
    share.clear();
    expect(await share.get('k', 500, answer(4), undefined, onHit)).toBe(4);
  });

  it('lets a caller stop waiting on its own signal while the others get the shared answer', async () => {
    const share = createShare(() => 0);
    const gate = deferred<{ value: string; bytes: number }>();
    const controller = new AbortController();
    const impatient = share.get('k', undefined, () => gate.promise, {
      signal: controller.signal,
      onAbort: () => new Error('gave up'),
    });
    const patient = share.get('k', undefined, answer('other'));
    controller.abort();
    await expect(impatient).rejects.toThrow('gave up');
    gate.resolve(sized('shared'));
    expect(await patient).toBe('shared');
  });

  it('keeps no more bytes of answers than its bound: the least recently used go first', async () => {
    const share = createShare(() => 0, { maxEntries: 100, maxBytes: 1_000 });
    for (const key of ['a', 'b', 'c']) await share.get(key, 60_000, answer(key, 400));
    // a went when c came (1,200 bytes > 1,000); b and c are still kept.
    expect(await share.get('a', 60_000, answer('a again', 400))).toBe('a again');
    expect(await share.get('c', 60_000, answer('c again', 400))).toBe('c');
    // One answer larger than the whole bound is served but never kept.
    expect(await share.get('huge', 60_000, answer('huge', 5_000))).toBe('huge');
    expect(await share.get('huge', 60_000, answer('huge again', 5_000))).toBe('huge again');
    expect(await share.get('c', 60_000, answer('c again', 400))).toBe('c');
  });

  it('keeps an empty answer too (counted as one byte)', async () => {
    const share = createShare(() => 0);
    await share.get('empty', 60_000, answer('', 0));
    expect(await share.get('empty', 60_000, answer('again', 0))).toBe('');
  });
});
