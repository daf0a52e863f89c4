// `/schedule add ... preview:yes` (and the add reply's "Preview" button) runs the command once as
// its creator and shows the post as it will appear: nothing is posted, nothing is added.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderConsole } from '../../adapters/console/render.ts';
import { renderDiscord } from '../../src/render/discord.ts';
import { renderSlack } from '../../src/render/slack.ts';
import { SERVICE_KEYS, type ServiceKey } from '../../src/domain/services.ts';
import type { ServiceMode } from '../../src/sandbox/resolve.ts';
import { MANAGER, replica, startWorld, type World } from './world.ts';
import { readAddText } from '../support/schedule-line.ts';

let w: World;
beforeAll(async () => {
  w = await startWorld();
});
afterAll(() => w.close());
beforeEach(async () => {
  for (const r of await w.store.listSchedules()) await w.store.removeSchedule(r.id);
});

describe('/schedule add preview:yes', () => {
  it('shows the post the schedule would make, with its embeds, and posts and adds nothing', async () => {
    const posted = w.inbox.messages.length;
    const reply = await w.type('/schedule add "every day at 07:30" /weather Oslo preview:yes');
    expect(reply.heading).toMatch(
      /^Preview of \/weather Oslo for default \(not posted, not added; next run .+\):$/,
    );
    expect(reply.text).toMatch(/^Oslo.*: /);
    expect(reply.embeds?.map((e) => e.title)).toEqual([expect.stringContaining('Weather in Oslo')]);
    expect(reply.actions).toBeUndefined();
    expect(reply.ephemeral).toBe(true);
    expect(w.inbox.messages.length).toBe(posted);
    expect(await w.store.listSchedules()).toEqual([]);
    expect(w.upstream().some((r) => r.path.includes('/weather'))).toBe(true);
  });

  it('says it is a preview on every platform, once and first, above the post', async () => {
    const reply = await w.type('/schedule add "every day at 07:30" /weather Oslo preview:yes');
    const heading = reply.heading!;
    const count = (text: string) => text.split('Preview of /weather Oslo').length - 1;
    // Discord shows a reply's embeds without its text: the heading is the content above them.
    const discord = renderDiscord(reply);
    expect(discord.content).toBe(heading);
    expect(count(JSON.stringify(discord))).toBe(1);
    // Slack shows the text and the embeds: the heading leads them, once.
    const slack = renderSlack(reply);
    expect(slack.blocks[0]).toMatchObject({
      type: 'section',
      text: { text: expect.stringMatching(/^Preview of/) },
    });
    expect(count(JSON.stringify(slack.blocks))).toBe(1);
    const terminal = renderConsole(reply);
    expect(terminal.startsWith(heading)).toBe(true);
    expect(count(terminal)).toBe(1);
    // A post without embeds too: the heading, then the post's text.
    const plain = { ...reply, embeds: [] };
    expect(renderDiscord(plain).content).toBe(`${heading}\n${reply.text}`);
    expect(count(JSON.stringify(renderSlack(plain).blocks))).toBe(1);
    expect(renderConsole(plain)).toBe(`${heading}\n\n${reply.text}`);
  });

  it('catches /weather Atlantis before 07:30: its slot would fail with the command’s sentence', async () => {
    const posted = w.inbox.messages.length;
    const reply = await w.type('/schedule add "every day at 07:30" /weather Atlantis preview:yes');
    expect(reply.text).toMatch(
      /^Preview of \/weather Atlantis for default .* it fails now, so it would fail then: No city called “Atlantis” was found\.$/,
    );
    expect(w.inbox.messages.length).toBe(posted);
    expect(await w.store.listSchedules()).toEqual([]);
  });

  it('says in one sentence that a command failing now would fail at its slot, and counts it failed', async () => {
    const posted = w.inbox.messages.length;
    let outcome: unknown;
    let text = '';
    await w.dispatcher
      .onInvocation({
        command: 'schedule',
        rawInput: 'add when:"every day at 07:30" command:"/weather sandbox-error" preview:yes',
        actor: { platform: 'console', id: 'local', displayName: 'operator', roles: [], isOperator: true },
        channelId: 'test',
        signal: new AbortController().signal,
        respond: (r) => {
          text = r.text;
          return Promise.resolve();
        },
      })
      .then((o) => (outcome = o));
    expect(text).toMatch(
      /^Preview of \/weather sandbox-error for default .* it fails now, so it would fail then: The weather service/,
    );
    expect(outcome).toBe('error');
    expect(w.inbox.messages.length).toBe(posted);
    expect(await w.store.listSchedules()).toEqual([]);
  });

  it('refuses what add refuses, before running anything', async () => {
    const before = w.upstream().length;
    const reply = await w.type('/schedule add "every minute" /weather Oslo preview:yes');
    expect(reply.text).not.toMatch(/^Preview/);
    expect(w.upstream().length).toBe(before);
  });

  it('offers a Preview button on the add reply that previews the same schedule', async () => {
    const added = await w.type('/schedule add "every day at 07:30" /weather Oslo units:imperial');
    expect(added.text).toMatch(/^Schedule \w+ added/);
    const button = added.actions?.find((a) => a.label === 'Preview');
    expect(button).toEqual({
      label: 'Preview',
      command: 'schedule add',
      input: { when: 'every day at 07:30', command: '/weather Oslo units:imperial', preview: 'yes' },
    });
    const posted = w.inbox.messages.length;
    let reply: Awaited<ReturnType<World['type']>> | undefined;
    await w.dispatcher.onInvocation({
      command: button!.command,
      rawInput: button!.input,
      actor: { platform: 'console', id: 'local', displayName: 'operator', roles: [], isOperator: true },
      channelId: 'test',
      signal: new AbortController().signal,
      respond: (r) => {
        reply = r;
        return Promise.resolve();
      },
    });
    expect(reply!.heading).toMatch(/^Preview of \/weather Oslo units:imperial/);
    expect(w.inbox.messages.length).toBe(posted);
    expect(await w.store.listSchedules()).toHaveLength(1);
  });

  it('reads preview:yes after the command line as its own, not the command’s', () => {
    expect(readAddText('"every day at 07:30" /weather Oslo preview:yes')).toEqual({
      when: 'every day at 07:30',
      command: '/weather Oslo',
      preview: 'yes',
    });
  });
});

describe('a preview of a post of simulated data (SCHEDULE_ALLOW_SIMULATED=true)', () => {
  it('carries the footer the post will carry: exactly the embeds the slot posts', async () => {
    const modes = Object.fromEntries(SERVICE_KEYS.map((k) => [k, 'simulated'])) as Record<
      ServiceKey,
      ServiceMode
    >;
    const simulated = { plan: { modes }, allow: true };
    const world = await startWorld({ simulated });
    try {
      const preview = await world.type('/schedule add to:ops daily /weather Oslo preview:yes', MANAGER);
      expect(preview.embeds?.[0]?.footer).toMatch(/\nSimulated data \(built-in sandbox\): weather\.$/);
      expect(preview.text).toMatch(/\n\nSimulated data \(built-in sandbox\): weather\.$/);
      await world.type('/schedule add to:ops daily /weather Oslo', MANAGER);
      const [record] = await world.store.listSchedules();
      const runner = replica(world, world.store, {
        now: () => new Date('2026-03-27T12:00:00Z'),
        owner: 'r',
        simulated,
      });
      expect((await runner.runNow(record!)).outcome).toBe('posted');
      expect(world.inbox.messages[0]!.embeds).toEqual(renderDiscord(preview).embeds);
    } finally {
      await world.close();
    }
  });
});
