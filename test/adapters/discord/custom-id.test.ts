import { describe, expect, it } from 'vitest';
import { CUSTOM_ID_MAX, createButtonTargets, customIdFor } from '../../../adapters/discord/custom-id.ts';

describe('button custom ids', () => {
  it('encodes a small action inline and reads it back with its types', async () => {
    const id = customIdFor({ command: 'jobs', input: { what: 'rust dev', page: 3, remote: true } });
    expect(id).toBe('h1:["jobs",{"what":"rust dev","page":3,"remote":true}]');
    // No store is asked: another adapter's targets read it as well.
    expect(await createButtonTargets().resolve(id)).toEqual({
      command: 'jobs',
      input: { what: 'rust dev', page: 3, remote: true },
    });
  });

  it('gives an action longer than 100 characters a short stored id', () => {
    const id = customIdFor({ command: 'jobs', input: { what: 'x'.repeat(100) } });
    expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
    expect(id).toMatch(/^h1#[A-Za-z0-9_-]{24}$/);
  });

  it('rejects custom ids that are not well-formed herald actions', async () => {
    const targets = createButtonTargets();
    for (const bad of [
      'other-bot:next',
      'h1:not json',
      'h1:{"a":1}',
      'h1:["",{}]',
      'h1:["jobs",[1]]',
      'h1:["jobs",{"page":{"nested":1}}]',
      'h1:["jobs",{"page":null}]',
      'h1#short',
      'h1#AAAAAAAAAAAAAAAAAAAAAAAA.bad:owner',
    ]) {
      expect(await targets.resolve(bad)).toBeUndefined();
    }
  });
});
