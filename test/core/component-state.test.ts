import { describe, expect, it } from 'vitest';
import {
  COMPONENT_TTL_MS,
  createComponentState,
  createLocalValues,
  forgetComponents,
  type ComponentValues,
} from '../../src/core/component-state.ts';

const long = (page: number) => ({ command: 'jobs', input: { what: 'y'.repeat(200), page } });

describe('component state', () => {
  it('stores a long target once the batch is saved, for any state sharing the values', async () => {
    const values = createLocalValues();
    const batch = createComponentState({ values, maxIdLength: 100 }).batch();
    // An Action carries its label too; the label is not part of the target.
    const action = { label: 'Next', ...long(2) };
    const id = batch.idFor(action);
    expect(id.length).toBeLessThanOrEqual(100);
    await batch.saved();
    expect(await createComponentState({ values, maxIdLength: 100 }).resolve(id)).toEqual(long(2));
  });

  it('keeps a target inline within the cap, and stores nothing for it', async () => {
    const values = createLocalValues();
    const state = createComponentState({ values, maxIdLength: 255 });
    const batch = state.batch();
    const id = batch.idFor(long(3));
    expect(id.startsWith('h1:')).toBe(true);
    await batch.saved();
    expect(await values.getValue(`component:${id.slice(3)}`)).toBeUndefined();
    expect(await state.resolve(id)).toEqual(long(3));
  });

  it("expires a target after the ttl unless its owner exists; the owner's removal forgets it", async () => {
    let t = 0;
    const values = createLocalValues(() => t);
    const live = new Set(['k7p2mx']);
    const owners = {
      of: (target: { input: Record<string, unknown> }) => target.input.id as string | undefined,
      exists: (id: string) => Promise.resolve(live.has(id)),
    };
    const state = createComponentState({ values, maxIdLength: 100, owners });
    const batch = state.batch();
    const plain = batch.idFor(long(1));
    const owned = batch.idFor({ command: 'schedule run', input: { id: 'k7p2mx', note: 'z'.repeat(120) } });
    const gone = batch.idFor({ command: 'schedule run', input: { id: 'nosuch', note: 'z'.repeat(120) } });
    expect(owned.endsWith('.k7p2mx')).toBe(true);
    await batch.saved();
    t = COMPONENT_TTL_MS;
    expect(await state.resolve(plain)).toBeUndefined();
    expect(await state.resolve(gone)).toBeUndefined();
    expect(await state.resolve(owned)).toMatchObject({ input: { id: 'k7p2mx' } });
    expect(await forgetComponents(values, 'k7p2mx')).toBe(1);
    expect(await state.resolve(owned)).toBeUndefined();
  });

  it('saved() rejects when a write failed, and only then', async () => {
    const failing: ComponentValues = {
      ...createLocalValues(),
      setValue: () => Promise.reject(new Error('store down')),
    };
    const batch = createComponentState({ values: failing, maxIdLength: 100 }).batch();
    batch.idFor(long(1));
    await expect(batch.saved()).rejects.toThrow('store down');
  });
});
