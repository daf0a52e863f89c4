import { describe, expect, it } from 'vitest';
import {
  CUSTOM_ID_MAX,
  createActionStore,
  customIdFor,
  inlineCustomId,
  parseInlineCustomId,
} from '../../../adapters/discord/custom-id.ts';

describe('button custom ids', () => {
  it('encodes a small action inline and reads it back with its types', () => {
    const id = inlineCustomId({ command: 'jobs', input: { what: 'rust dev', page: 3, remote: true } });
    expect(id).toBe('h1:["jobs",{"what":"rust dev","page":3,"remote":true}]');
    expect(parseInlineCustomId(id!)).toEqual({
      command: 'jobs',
      input: { what: 'rust dev', page: 3, remote: true },
    });
  });

  it('refuses to encode inline an action longer than 100 characters', () => {
    expect(inlineCustomId({ command: 'jobs', input: { what: 'x'.repeat(100) } })).toBeUndefined();
    const id = customIdFor({ command: 'jobs', input: { what: 'x'.repeat(100) } });
    expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
    expect(id.startsWith('h1#')).toBe(true);
  });

  it('rejects custom ids that are not well-formed herald actions', () => {
    for (const bad of [
      'other-bot:next',
      'h1:not json',
      'h1:{"a":1}',
      'h1:["",{}]',
      'h1:["jobs",[1]]',
      'h1:["jobs",{"page":{"nested":1}}]',
      'h1:["jobs",{"page":null}]',
    ]) {
      expect(parseInlineCustomId(bad)).toBeUndefined();
    }
  });
});

describe('createActionStore', () => {
  it('remembers a long action under a short id and resolves it on click', () => {
    const store = createActionStore();
    const long = { label: 'Next', command: 'jobs', input: { what: 'y'.repeat(200), page: 2 } };
    const id = store.idFor(long);
    expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
    expect(store.resolve(id)).toEqual({ command: 'jobs', input: { what: 'y'.repeat(200), page: 2 } });
  });

  it('resolves inline ids without remembering anything', () => {
    const store = createActionStore({ max: 1 });
    const id = store.idFor({ label: 'Next', command: 'jobs', input: { page: 2 } });
    expect(createActionStore().resolve(id)).toEqual({ command: 'jobs', input: { page: 2 } });
  });

  it('forgets the least recently used long actions beyond its size', () => {
    const store = createActionStore({ max: 2 });
    const ids = [1, 2, 3].map((n) =>
      store.idFor({ label: 'n', command: 'jobs', input: { what: 'z'.repeat(120), page: n } }),
    );
    expect(store.resolve(ids[0]!)).toBeUndefined();
    expect(store.resolve(ids[2]!)).toEqual({ command: 'jobs', input: { what: 'z'.repeat(120), page: 3 } });
  });

  it('does not know a stored id issued before a restart', () => {
    const before = createActionStore();
    const id = before.idFor({ label: 'n', command: 'jobs', input: { what: 'q'.repeat(120) } });
    expect(createActionStore().resolve(id)).toBeUndefined();
  });
});
