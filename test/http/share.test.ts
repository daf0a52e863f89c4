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

describe('createShare', () => {
  it('runs one load for identical concurrent keys, and a new one once it has settled', async () => {
    const share = createShare(() => 0);
    let loads = 0;
    const gate = deferred<string>();
    const load = () => {
      loads++;
      return gate.promise;
    };
    const both = Promise.all([share.get('k', undefined, load), share.get('k', undefined, load)]);
    gate.resolve('v');
    expect(await both).toEqual(['v', 'v']);
    expect(loads).toBe(1);
    await share.get('k', undefined, () => Promise.resolve('again'));
    expect(await share.get('k', undefined, () => Promise.resolve('fresh'))).toBe('fresh');
  });

  it('keeps an answer for its TTL by the given clock, telling each hit, and never keeps a failure', async () => {
    let now = 1_000;
    const share = createShare(() => now);
    let hits = 0;
    const onHit = () => hits++;
    await expect(
      share.get('k', 500, () => Promise.reject(new Error('down')), undefined, onHit),
    ).rejects.toThrow('down');
    expect(await share.get('k', 500, () => Promise.resolve(1), undefined, onHit)).toBe(1);
    expect(await share.get('k', 500, () => Promise.resolve(2), undefined, onHit)).toBe(1);
    expect(hits).toBe(1);
    now += 501;
    expect(await share.get('k', 500, () => Promise.resolve(3), undefined, onHit)).toBe(3);
    share.clear();
    expect(await share.get('k', 500, () => Promise.resolve(4), undefined, onHit)).toBe(4);
  });

  it('lets a caller stop waiting on its own signal while the others get the shared answer', async () => {
    const share = createShare(() => 0);
    const gate = deferred<string>();
    const controller = new AbortController();
    const impatient = share.get('k', undefined, () => gate.promise, {
      signal: controller.signal,
      onAbort: () => new Error('gave up'),
    });
    const patient = share.get('k', undefined, () => Promise.resolve('other'));
    controller.abort();
    await expect(impatient).rejects.toThrow('gave up');
    gate.resolve('shared');
    expect(await patient).toBe('shared');
  });
});
