// /schedule through the real dispatcher: add (both forms), list, pause, resume, remove, run; access;
// and every bad input as one sentence with no upstream request.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createComponentState } from '../../src/core/component-state.ts';
import { recordingLog, type LogLine } from '../support/command-doubles.ts';
import { MANAGER, OPERATOR, ROLE_HOLDER, STRANGER, startWorld, type World } from './world.ts';
import { readAddText } from '../support/schedule-line.ts';

let world: World;
beforeEach(async () => {
  world = await startWorld();
});
afterEach(() => world.close());

/** The reply to a line that must fail: its one sentence, only the invoker sees it, nothing upstream. */
async function refusal(line: string, actor = OPERATOR): Promise<string> {
  const reply = await world.type(line, actor);
  expect(reply.ephemeral).toBe(true);
  expect(reply.embeds ?? []).toEqual([]);
  expect(world.upstream()).toEqual([]);
  expect(reply.text.trim().split(/(?<=[.;:])\s+(?=[A-Z])/)).toHaveLength(1);
  return reply.text;
}

describe('/schedule add', () => {
  it('takes the short form: when, then the command line verbatim', async () => {
    const reply = await world.type('/schedule add "every weekday at 07:30" /weather Oslo units:imperial');
    const [record] = await world.store.listSchedules();
    expect(record).toMatchObject({
      when: 'every weekday at 07:30',
      cron: '30 7 * * 1-5',
      timezone: 'UTC',
      destination: 'default',
      command: '/weather Oslo units:imperial',
      creator: { id: 'local', isOperator: true },
      paused: false,
    });
    expect(reply.text).toBe(
      `Schedule ${record!.id} added: every weekday (Monday to Friday) at 07:30 (UTC), /weather Oslo units:imperial to default.`,
    );
    const fields = Object.fromEntries((reply.embeds?.[0]?.fields ?? []).map((f) => [f.name, f.value]));
    // 2026-03-27 is a Friday: the next three weekdays at 07:30.
    expect(fields['Next runs']).toBe(
      ['Mon, 30 Mar 2026, 07:30 UTC', 'Tue, 31 Mar 2026, 07:30 UTC', 'Wed, 1 Apr 2026, 07:30 UTC'].join('\n'),
    );
    expect(fields.Destination).toBe('default');
    expect(reply.actions).toEqual([
      { label: 'Run now', command: 'schedule run', input: { id: record!.id } },
      { label: 'Remove', command: 'schedule remove', input: { id: record!.id } },
      {
        label: 'Preview',
        command: 'schedule add',
        input: { when: 'every weekday at 07:30', command: '/weather Oslo units:imperial', preview: 'yes' },
      },
    ]);
    expect(reply.embeds?.[0]?.footer).toContain(`/schedule run ${record!.id}`);
    // Adding reads the command line but asks no service for anything.
    expect(world.upstream()).toEqual([]);
  });

  it('takes the keyed form with a nested quoted command, a destination and a zone', async () => {
    const reply = await world.type(
      '/schedule add when:"every monday at 09:00" command:"/jobs what:\\"rust developer\\" where:Berlin country:de" to:OPS tz:europe/berlin',
      MANAGER,
    );
    expect(reply.ephemeral).toBeFalsy();
    const [record] = await world.store.listSchedules();
    expect(record).toMatchObject({
      command: '/jobs what:"rust developer" where:Berlin country:de',
      destination: 'ops',
      timezone: 'Europe/Berlin',
      creator: { id: MANAGER.id, platform: 'discord' },
    });
    const next = reply.embeds?.[0]?.fields?.find((f) => f.name === 'Next runs')?.value;
    // 09:00 in Berlin, written in the reader's zone (SCHEDULE_TZ, UTC here).
    expect(next?.split('\n')[0]).toBe('Mon, 30 Mar 2026, 07:00 UTC');
  });

  it('reads to: and tz: before the when in the short form, and Discord-style typed options', async () => {
    expect(readAddText('to:ops tz:Asia/Tokyo "daily at 18:00" /forecast Paris')).toEqual({
      to: 'ops',
      tz: 'Asia/Tokyo',
      when: 'daily at 18:00',
      command: '/forecast Paris',
    });
    expect(readAddText('every 2 hours /report range:7d')).toEqual({
      when: 'every 2 hours',
      command: '/report range:7d',
    });
    expect(readAddText('"*/30 * * * *" /voices')).toEqual({ when: '*/30 * * * *', command: '/voices' });
    expect(readAddText('when:hourly command:/voices')).toEqual({ when: 'hourly', command: '/voices' });
    let reply: unknown;
    await world.dispatcher.onInvocation({
      command: 'schedule add',
      rawInput: { when: 'hourly', command: '/voices', to: 'ops' },
      actor: ROLE_HOLDER,
      channelId: 'c',
      signal: new AbortController().signal,
      respond: (r) => {
        reply = r;
        return Promise.resolve();
      },
    });
    expect(reply).toMatchObject({ text: expect.stringMatching(/^Schedule \w{6} added: every hour/) });
  });

  it('reads to: and tz: typed after the command line as the schedule’s, as preview: is', async () => {
    const reply = await world.type(
      '/schedule add "every day at 07:30" /weather Oslo to:ops units:imperial tz:Europe/Berlin',
    );
    const [record] = await world.store.listSchedules();
    expect(record).toMatchObject({
      command: '/weather Oslo units:imperial',
      destination: 'ops',
      timezone: 'Europe/Berlin',
    });
    expect(reply.text).toMatch(
      /^Schedule \w+ added: .+ \(Europe\/Berlin\), \/weather Oslo units:imperial to ops\.$/,
    );
    expect(world.upstream()).toEqual([]);
  });

  it('reads the schedule’s options after a command line given in Discord’s command field too', async () => {
    await world.dispatcher.onInvocation({
      command: 'schedule add',
      rawInput: { when: 'hourly', command: '/weather Oslo to:ops units:imperial tz:Asia/Tokyo' },
      actor: ROLE_HOLDER,
      channelId: 'c',
      signal: new AbortController().signal,
      respond: () => Promise.resolve(),
    });
    const [record] = await world.store.listSchedules();
    expect(record).toMatchObject({
      command: '/weather Oslo units:imperial',
      destination: 'ops',
      timezone: 'Asia/Tokyo',
    });
  });

  it('logs at most 100 characters of a cron expression the user typed', async () => {
    const lines: LogLine[] = [];
    const logged = await startWorld({ log: recordingLog(lines) });
    try {
      const list = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i).join(',');
      // 176 characters, every hour of the first 28 days of every month: a valid cron, stored whole.
      const cron = `0,15,30,45 ${list(24)} ${list(28, 1)} ${list(12, 1)} *`;
      await logged.type(`/schedule add "${cron}" /weather Oslo`);
      const [record] = await logged.store.listSchedules();
      expect(record?.cron).toBe(cron);
      const added = lines.find((l) => l.msg === 'schedule.added');
      expect(added?.obj).toMatchObject({ scheduleId: record!.id, cron: `${cron.slice(0, 99)}…` });
    } finally {
      await logged.close();
    }
  });
});

describe('/schedule list, pause, resume, remove', () => {
  it('lists every field; anyone may list what they may see; pause and resume change the next run', async () => {
    await world.type('/schedule add "daily at 18:00" /forecast Paris', MANAGER);
    await world.type('/schedule add to:ops "every monday at 09:00" /voices');
    const [a, b] = await world.store.listSchedules();
    // Both post to destinations set by environment: the deployment's, not a stranger's to read.
    expect((await world.type('/schedule list', STRANGER)).text).toMatch(/^No schedules yet/);
    let list = await world.type('/schedule list');
    expect(list.text).toBe('2 schedules (at most 50).');
    const fields = list.embeds![0]!.fields!;
    expect(fields.map((f) => f.name)).toEqual([
      `${a!.id} · every day at 18:00`,
      `${b!.id} · every Monday at 09:00`,
    ]);
    expect(fields[0]!.value).toBe(
      [
        'When: "daily at 18:00", UTC',
        'Runs: /forecast Paris → default',
        'By: Ada (discord)',
        'Next: Fri, 27 Mar 2026, 18:00 UTC',
        'Last: not run yet',
      ].join('\n'),
    );
    expect((await world.type(`/schedule pause ${a!.id}`, MANAGER)).text).toBe(
      `Schedule ${a!.id} is paused; /schedule resume ${a!.id} starts it again.`,
    );
    list = await world.type('/schedule list');
    expect(list.embeds![0]!.fields![0]!.name).toBe(`${a!.id} (paused) · every day at 18:00`);
    expect(list.embeds![0]!.fields![0]!.value).toContain('Next: paused');
    expect((await world.type(`/schedule resume ${a!.id}`)).text).toBe(
      `Schedule ${a!.id} resumed; next run Fri, 27 Mar 2026, 18:00 UTC.`,
    );
    // b is the operator's: a manager's role does not make it theirs, nor lets them see it.
    expect((await world.type(`/schedule remove ${b!.id}`, ROLE_HOLDER)).text).toBe(
      `There is no schedule "${b!.id}"; /schedule list shows them all.`,
    );
    expect((await world.type(`/schedule remove ${b!.id}`)).text).toBe(
      `Schedule ${b!.id} (every Monday at 09:00, /voices) removed.`,
    );
    expect((await world.store.listSchedules()).map((r) => r.id)).toEqual([a!.id]);
    expect(world.upstream()).toEqual([]);
  });

  it("removing a schedule forgets its buttons' stored targets, and no other's", async () => {
    await world.type('/schedule add "every day at 18:00" /weather Oslo');
    const [record] = await world.store.listSchedules();
    const owners = {
      of: (t: { input: Record<string, unknown> }) => t.input.id as string | undefined,
      exists: async (id: string) => (await world.store.getSchedule(id)) !== undefined,
    };
    const state = createComponentState({ values: world.store, maxIdLength: 100, owners });
    const batch = state.batch();
    const note = 'n'.repeat(120);
    const own = batch.idFor({ command: 'schedule run', input: { id: record!.id, note } });
    const other = batch.idFor({ command: 'jobs', input: { what: note } });
    await batch.saved();
    await world.type(`/schedule remove ${record!.id}`);
    expect(await state.resolve(own)).toBeUndefined();
    expect(await state.resolve(other)).toEqual({ command: 'jobs', input: { what: note } });
  });

  it('says when there is nothing to list', async () => {
    expect((await world.type('/schedule list')).text).toMatch(
      /^No schedules yet; add one with \/schedule add/,
    );
  });
});

describe('bad input: one sentence each, no upstream request', () => {
  it('unknown command', async () => {
    expect(await refusal('/schedule add hourly /wether Oslo')).toBe(
      'There is no command /wether; did you mean /weather? /help lists them all.',
    );
  });

  it('a command that cannot be scheduled', async () => {
    expect(await refusal('/schedule add hourly /email send a@example.com Hi There')).toBe(
      '/email send cannot be scheduled: only commands that read can, such as /weather, /jobs or /report.',
    );
    expect(await refusal('/schedule add hourly /schedule list')).toMatch(
      /^\/schedule list cannot be scheduled/,
    );
    // /settings changes what later commands read: it is no report.
    expect(await refusal('/schedule add hourly /settings units:imperial')).toMatch(
      /^\/settings cannot be scheduled/,
    );
  });

  it('invalid options of the scheduled command, with the sentence a typed one gets', async () => {
    const typed = await world.type('/weather Oslo units:kelvin');
    expect(await refusal('/schedule add hourly /weather Oslo units:kelvin')).toBe(typed.text);
    expect(typed.text).toBe('units must be one of metric, imperial, standard.');
    expect(await refusal('/schedule add hourly /jobs')).toMatch(/^\/jobs needs what/);
  });

  it('a schedule option after the command line, with the sentence it gets before it', async () => {
    const before = await refusal('/schedule add preview:maybe hourly /voices');
    expect(await refusal('/schedule add hourly /voices preview:maybe')).toBe(before);
    expect(before).toMatch(/^preview must be one of yes, no/);
  });

  it('unparseable or too frequent when', async () => {
    expect(await refusal('/schedule add "whenever" /voices')).toMatch(
      /^I cannot read "whenever" as a schedule/,
    );
    expect(await refusal('/schedule add "every 5 minutes" /voices')).toBe(
      '"every 5 minutes" runs every 5 minutes, more often than the 15-minute minimum (SCHEDULE_MIN_INTERVAL_MINUTES).',
    );
  });

  it('unknown time zone', async () => {
    expect(await refusal('/schedule add tz:Mars/Olympus hourly /voices')).toBe(
      '"Mars/Olympus" is not a time zone I know; use an IANA name such as Europe/Berlin or America/New_York.',
    );
  });

  it('unknown destination, naming the configured ones', async () => {
    expect(await refusal('/schedule add to:sales hourly /voices')).toBe(
      'There is no destination "sales"; the configured ones are default, ops.',
    );
  });

  it('unknown id', async () => {
    for (const sub of ['remove', 'pause', 'resume', 'run']) {
      expect(await refusal(`/schedule ${sub} zzzzzz`)).toBe(
        'There is no schedule "zzzzzz"; /schedule list shows them all.',
      );
    }
  });

  it('not allowed: only the listed users and roles, or the operator, may manage', async () => {
    expect(await refusal('/schedule add hourly /voices', STRANGER)).toBe(
      'You are not allowed to manage schedules: ask an admin to add you (user id U0STRANGER1) to SCHEDULE_ALLOWED_USERS.',
    );
    await world.type('/schedule add hourly /voices');
    const [r] = await world.store.listSchedules();
    expect(await refusal(`/schedule remove ${r!.id}`, STRANGER)).toMatch(
      /^You are not allowed to manage schedules/,
    );
    expect(await world.store.listSchedules()).toHaveLength(1);
  });

  it('the creator’s own access rules apply to what they schedule', async () => {
    expect(await refusal('/schedule add hourly /host 8.8.8.8', ROLE_HOLDER)).toMatch(
      /^You are not allowed to use \/host/,
    );
  });

  it('too many schedules', async () => {
    await world.close();
    world = await startWorld({ settings: { max: 2 } });
    await world.type('/schedule add hourly /voices');
    await world.type('/schedule add daily /voices');
    expect(await refusal('/schedule add "every 2 hours" /voices')).toBe(
      'There are already 2 schedules, the most SCHEDULE_MAX allows; remove one first.',
    );
  });
});

describe('autocomplete', () => {
  it('offers the destinations and IANA zones', async () => {
    const ask = (option: string, partial: string) =>
      world.dispatcher.onAutocomplete({ command: 'schedule add', option, partial, actor: MANAGER });
    expect(await ask('to', '')).toEqual([
      { name: 'default', value: 'default' },
      { name: 'ops', value: 'ops' },
    ]);
    expect(await ask('tz', 'berl')).toEqual([{ name: 'Europe/Berlin', value: 'Europe/Berlin' }]);
    expect((await ask('tz', 'america/new')).map((c) => c.value)).toContain('America/New_York');
    expect(await ask('tz', '')).toHaveLength(25);
  });
});
