// The simulated-data guard: one decision (refuse, footer or ok) from the services a command needs,
// the service plan, the destination and SCHEDULE_ALLOW_SIMULATED, made at add time and at every run.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { configReport } from '../../src/config/startup-report.ts';
import type { Language } from '../../src/domain/preferences.ts';
import { SERVICE_KEYS, type ServiceKey } from '../../src/domain/services.ts';
import { translatorFor } from '../../src/i18n/translate.ts';
import { planServices, type ServiceMode } from '../../src/sandbox/resolve.ts';
import { decideSimulated, destinationModeOf, withFooter } from '../../src/schedule/simulated.ts';
import { createMemoryStore, type Store } from '../../src/store/index.ts';
import { MANAGER, OPERATOR, OPS_WEBHOOK_ID, replica, startWorld, type World } from './world.ts';

/** A plan: the listed services in their modes, every other one simulated. */
function plan(modes: Partial<Record<ServiceKey, ServiceMode>> = {}) {
  return {
    modes: Object.fromEntries(SERVICE_KEYS.map((k) => [k, modes[k] ?? 'simulated'])) as Record<
      ServiceKey,
      ServiceMode
    >,
  };
}

const WEATHER_REFUSAL =
  'This schedule would post simulated weather data to the real destination "ops"; configure WEATHER_API_KEY, or set SCHEDULE_ALLOW_SIMULATED=true to post it marked as simulated.';

describe('decideSimulated', () => {
  it('refuses simulated data for a named webhook, naming the services and their variables', () => {
    /** The refusal's sentence in `language`, or undefined when the guard lets the post through. */
    const refusal = (decision: ReturnType<typeof decideSimulated>, language: Language = 'en-GB') =>
      decision.kind === 'refuse' ? decision.said(translatorFor(language), language) : undefined;
    expect(refusal(decideSimulated(['weather'], plan(), 'ops', false))).toBe(WEATHER_REFUSAL);
    const both = decideSimulated(
      ['weather', 'geocoding'],
      plan({ webhook: 'real' }),
      'channel:discord:1',
      false,
    );
    expect(refusal(both)).toBe(
      'This schedule would post simulated weather and geocoding data to a real channel; configure WEATHER_API_KEY and GEOCODING_API_KEY, or set SCHEDULE_ALLOW_SIMULATED=true to post it marked as simulated.',
    );
    expect(refusal(both, 'fr')).toBe(
      'Cette planification publierait des données simulées (weather et geocoding) dans un vrai canal ; configurez WEATHER_API_KEY et GEOCODING_API_KEY, ou définissez SCHEDULE_ALLOW_SIMULATED=true pour les publier marquées comme simulées.',
    );
  });

  it('marks it with a footer when SCHEDULE_ALLOW_SIMULATED is true', () => {
    expect(decideSimulated(['weather'], plan(), 'channel:slack:C0123', true)).toEqual({
      kind: 'footer',
      footer: 'Simulated data (built-in sandbox): weather.',
    });
  });

  it('looks only at the services the command uses: real analytics to a real webhook is ok', () => {
    const p = plan({ analytics: 'real', webhook: 'real' });
    expect(decideSimulated(['analytics', 'webhook'], p, 'default', false)).toEqual({ kind: 'ok' });
    expect(decideSimulated(['analytics'], p, 'ops', false)).toEqual({ kind: 'ok' });
    expect(decideSimulated([], p, 'ops', false)).toEqual({ kind: 'ok' });
    // The same command with analytics simulated is refused.
    expect(decideSimulated(['analytics', 'webhook'], plan({ webhook: 'real' }), 'default', false).kind).toBe(
      'refuse',
    );
  });

  it('lets everything through to the simulated default webhook (the console and the sandbox)', () => {
    expect(decideSimulated(['weather', 'analytics'], plan(), 'default', false)).toEqual({ kind: 'ok' });
  });

  it('calls channels and named webhooks real, and default real only with the real webhook', () => {
    expect(destinationModeOf('channel:discord:123', plan()) === 'real').toBe(true);
    expect(destinationModeOf('ops', plan()) === 'real').toBe(true);
    expect(destinationModeOf('default', plan()) === 'real').toBe(false);
    expect(destinationModeOf('default', plan({ webhook: 'real' })) === 'real').toBe(true);
  });

  it('puts the footer on the text and on every embed, keeping an existing footer', () => {
    const footer = 'Simulated data (built-in sandbox): weather.';
    expect(withFooter({ text: 'Oslo 4°C' }, footer)).toEqual({ text: `Oslo 4°C\n\n${footer}` });
    const reply = withFooter(
      { text: 'Oslo', embeds: [{ title: 'Oslo', footer: 'MET Norway' }, { title: 'b' }] },
      footer,
    );
    expect(reply.embeds?.map((e) => e.footer)).toEqual([`MET Norway\n${footer}`, footer]);
  });
});

describe('the guard on /schedule (add and run)', () => {
  let world: World;
  let store: Store;
  const now = () => new Date('2026-03-27T12:00:10Z');
  afterEach(() => world.close());

  async function start(allow: boolean, modes: Partial<Record<ServiceKey, ServiceMode>> = {}) {
    store = createMemoryStore({ now: () => now().getTime() });
    world = await startWorld({ now, simulated: { plan: plan(modes), allow } });
  }

  it('refuses at add time a simulated service to a real named webhook, in one sentence, asking nothing', async () => {
    await start(false);
    const reply = await world.type('/schedule add to:ops daily /weather Oslo', MANAGER);
    expect(reply.text).toBe(WEATHER_REFUSAL);
    expect(reply.ephemeral).toBe(true);
    expect(await world.store.listSchedules()).toEqual([]);
    expect(world.upstream()).toEqual([]);
    // And a preview is refused alike.
    expect(
      (await world.type('/schedule add when:daily command:"/weather Oslo" to:ops preview:yes', MANAGER)).text,
    ).toBe(WEATHER_REFUSAL);
  });

  it('refuses at run time, posting nothing, when the schedule was added while allowed', async () => {
    await start(true);
    await world.type('/schedule add to:ops daily /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    const runner = replica(world, store, { now, owner: 'r1', simulated: { plan: plan(), allow: false } });
    const result = await runner.runNow(record!);
    expect(result).toEqual({ outcome: 'failed', error: WEATHER_REFUSAL });
    expect(world.inbox.messages).toHaveLength(0);
    expect(world.upstream()).toEqual([]);
  });

  it('with SCHEDULE_ALLOW_SIMULATED=true, posts to the real webhook with the visible footer', async () => {
    await start(true);
    const added = await world.type('/schedule add to:ops daily /weather Oslo', MANAGER);
    expect(added.ephemeral).toBeFalsy();
    const [record] = await world.store.listSchedules();
    const runner = replica(world, store, { now, owner: 'r1', simulated: { plan: plan(), allow: true } });
    expect((await runner.runNow(record!)).outcome).toBe('posted');
    expect(world.inbox.messages.map((m) => m.webhookId)).toEqual([OPS_WEBHOOK_ID]);
    const posted = world.inbox.messages[0]!;
    expect(posted.embeds[0]).toMatchObject({
      footer: { text: expect.stringContaining('Simulated data (built-in sandbox): weather.') as unknown },
    });
  });

  it('runs a command whose services are real (analytics) to a real webhook while others are simulated', async () => {
    await start(false, { analytics: 'real', webhook: 'real' });
    expect((await world.type('/schedule add to:ops daily /weather Oslo', MANAGER)).text).toBe(
      WEATHER_REFUSAL,
    );
    const added = await world.type('/schedule add to:ops daily /report', MANAGER);
    expect(added.ephemeral, added.text).toBeFalsy();
    const [record] = await world.store.listSchedules();
    const runner = replica(world, store, {
      now,
      owner: 'r1',
      simulated: { plan: plan({ analytics: 'real', webhook: 'real' }), allow: false },
    });
    expect((await runner.runNow(record!)).outcome).toBe('posted');
    expect(JSON.stringify(world.inbox.messages[0])).not.toContain('Simulated data');
  });

  it('keeps the all-simulated console default working, unmarked, and lists destinations real or simulated', async () => {
    await start(false);
    const added = await world.type('/schedule add daily /weather Oslo', OPERATOR);
    expect(added.ephemeral, added.text).toBeFalsy();
    const [record] = await world.store.listSchedules();
    expect(record!.destination).toBe('default');
    const runner = replica(world, store, { now, owner: 'r1', simulated: { plan: plan(), allow: false } });
    expect((await runner.runNow(record!)).outcome).toBe('posted');
    expect(world.inbox.messages).toHaveLength(1);
    expect(JSON.stringify(world.inbox.messages[0])).not.toContain('Simulated data');

    const list = await world.type('/schedule list');
    expect(JSON.stringify(list.embeds)).toContain('/weather Oslo → default (simulated)');
  });
});

describe('disabled is not simulated', () => {
  const SUMMARY = {
    name: 'analytics-summary',
    description: 'the daily analytics summary',
    cron: '0 8 * * *',
    timezone: 'UTC',
    variables: 'ANALYTICS_SUMMARY_CRON and ANALYTICS_SUMMARY_TZ',
    destination: 'default',
  };
  let world: World | undefined;
  afterEach(() => world?.close());

  it('/schedule list calls the default destination disabled on a set-up without a webhook (Slack only), and says what to set', async () => {
    world = await startWorld({
      builtIns: [SUMMARY],
      simulated: { plan: plan({ webhook: 'disabled', analytics: 'real' }), allow: false },
    });
    const text = JSON.stringify((await world.type('/schedule list')).embeds);
    expect(text).toContain('the analytics-summary job → default (disabled: set WEBHOOK_URL)');
    expect(text).not.toContain('(simulated)');
  });

  it("still calls the sandbox's default destination simulated", async () => {
    world = await startWorld({ builtIns: [SUMMARY], simulated: { plan: plan(), allow: false } });
    expect(JSON.stringify((await world.type('/schedule list')).embeds)).toContain(
      'the analytics-summary job → default (simulated)',
    );
  });

  it('the start-up report names a disabled default destination as disabled, beside the real ones', () => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-report-test',
      SLACK_APP_TOKEN: 'xapp-report-test',
      WEBHOOK_URL_OPS: `http://127.0.0.1:9/api/webhooks/${OPS_WEBHOOK_ID}/tok-ops-report-secret`,
    });
    const texts = configReport(config, planServices(config), { file: undefined, fromFile: 0 }).map(
      (l) => l.text,
    );
    expect(texts).toContain('schedule destinations: default disabled (set WEBHOOK_URL), ops real');
    const bare = loadConfig({ SLACK_BOT_TOKEN: 'xoxb-report-test', SLACK_APP_TOKEN: 'xapp-report-test' });
    expect(
      configReport(bare, planServices(bare), { file: undefined, fromFile: 0 }).map((l) => l.text),
    ).toContain('schedule destinations: default disabled (set WEBHOOK_URL)');
  });
});

describe('the start-up report', () => {
  it('shows each destination as real or simulated', () => {
    const config = loadConfig({
      WEBHOOK_URL_OPS: `http://127.0.0.1:9/api/webhooks/${OPS_WEBHOOK_ID}/tok-ops-report-secret`,
    });
    const lines = configReport(config, planServices(config), { file: undefined, fromFile: 0 });
    expect(lines.map((l) => l.text)).toContain('schedule destinations: default simulated, ops real');
    const allowed = loadConfig({
      WEBHOOK_URL: `http://127.0.0.1:9/api/webhooks/${OPS_WEBHOOK_ID}/tok-default-report-secret`,
      SCHEDULE_ALLOW_SIMULATED: 'true',
    });
    const texts = configReport(allowed, planServices(allowed), { file: undefined, fromFile: 0 }).map(
      (l) => l.text,
    );
    expect(texts).toContain(
      'schedule destinations: default real (SCHEDULE_ALLOW_SIMULATED: simulated data posted marked)',
    );
  });
});
