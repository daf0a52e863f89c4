// A command's form, built from its zod options, and the typed line a submit spells: read back by the
// same grammar as a typed line, quotes and backslashes included; the console (no forms) keeps its
// sentence saying what to type.
import { afterAll, describe, expect, it } from 'vitest';
import { readInput } from '../../src/core/args.ts';
import { buildForm, fieldOfError, formLine, formReply, withReopen } from '../../src/core/form.ts';
import { OPERATOR, startWorld } from '../schedule/world.ts';

const world = await startWorld();
const add = world.registry.get('schedule add')!;
afterAll(() => world.close());

describe('a command’s form', () => {
  it('has a field per option its spec names, bounded by the schema, and one for further options', () => {
    const form = buildForm(add, { when: 'hourly' })!;
    expect(form.fields.map((f) => [f.name, f.isRequired, f.maxLength, f.isLong])).toEqual([
      ['when', true, 200, false],
      ['command', true, 1000, true],
      ['to', false, 32, false],
      ['tz', false, 64, false],
      ['more', false, 1000, false],
    ]);
    expect(form.fields[0]).toMatchObject({ label: 'When', value: 'hourly' });
    expect(form.fields[1]!.hint).toBe('The command line, e.g. /weather Oslo units:imperial');
    expect(buildForm(world.registry.get('schedule list')!)).toBeUndefined();
  });

  it('spells a submit as a typed line the grammar reads back exactly, quotes and backslashes kept', () => {
    const form = buildForm(add)!;
    const values = {
      when: 'every monday at 09:00',
      command: '/jobs what:"rust \\ developer" where:Berlin',
      to: '',
      tz: ' Europe/Berlin ',
      more: 'only:new',
    };
    const line = formLine(form, values);
    expect(readInput(add, line)).toEqual({
      when: 'every monday at 09:00',
      command: '/jobs what:"rust \\ developer" where:Berlin',
      tz: 'Europe/Berlin',
      only: 'new',
    });
  });

  it('puts a refusal beside the field its sentence names, else the first', () => {
    const form = buildForm(add)!;
    expect(fieldOfError(form, 'tz must be at most 64 characters long (it has 70).')).toBe('tz');
    expect(fieldOfError(form, 'The option to is given twice.')).toBe('to');
    expect(fieldOfError(form, '"every blue moon" is not a time herald reads.')).toBe('when');
  });

  it('adds "Edit and send again" to a refusal only, opening the form with what was sent', () => {
    const refused = withReopen({ text: 'No.', failureRef: 'f00dfeed' }, 'schedule add', { when: 'x' });
    expect(refused.actions).toEqual([
      { label: 'Edit and send again', command: 'schedule add', input: { when: 'x' }, opensForm: true },
    ]);
    expect(withReopen({ text: 'Added.' }, 'schedule add', { when: 'x' }).actions).toBeUndefined();
    expect(formReply(add).form?.title).toBe('New schedule');
  });

  it('leaves the console, which has no forms, its sentence saying what to type', async () => {
    const reply = await world.type('/schedule add', OPERATOR);
    expect(reply.form).toBeUndefined();
    expect(reply.text).toMatch(/when/);
  });
});
