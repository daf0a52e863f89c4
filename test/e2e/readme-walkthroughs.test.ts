// The README's Discord and Slack walkthroughs, herald's side of them, word for word against the
// contract fakes (test/adapters/discord/contract.ts, test/adapters/slack/fake-slack.ts). The
// commands are read from README.md itself, so that this test breaks when the README changes:
// - "Chat platforms → Discord": the variables of step 1, step 3's `npm run register` (run as
//   written, with the variables, against the fake's REST API), then the bot on the real discord.js
//   client and the fake gateway; the HTTP-interactions paragraph's `DISCORD_MODE=http`,
//   `DISCORD_PUBLIC_KEY` and `npm run register -- --endpoint …`, then raw interactions signed
//   with the application's key posted to herald's endpoint;
// - "Chat platforms → Slack": step 1's `npm run register -- --slack-manifest …` lines (the
//   manifest's `--out` file put in a scratch folder instead of the project root), then the real
//   Bolt app in each of step 3's modes: Socket Mode (the default: the app-level token, envelopes
//   over the socket, each acked) and HTTP mode (signed slash commands);
// - "Scheduled reports": step 2's `/schedule add …` line typed in the channel, showing the preview;
//   step 3's line typed again without `preview:yes`, which adds it; its slot then posted into that
//   channel by the runner, on a fake clock. `npm start`'s own composition runs the same adapters;
//   here they run in this process, so that the clock can be moved to the slot.
// The simulator stands in for the weather provider a team configures (the README's step 1 of
// Scheduled reports has herald's invite; a provider key is the deployment's).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../adapters/discord/adapter.ts';
import { createHttpInteractions, discordPublicKey } from '../../adapters/discord/http.ts';
import { createSlackAdapter } from '../../adapters/slack/adapter.ts';
import type { ChatAdapter } from '../../src/core/adapter.ts';
import { closeChannelClients, createChannelClients, type ChannelClients } from '../../src/destinations.ts';
import { createRoutes, startHealthServer } from '../../src/health.ts';
import { createMetrics } from '../../src/metrics.ts';
import type { ScheduleRunner } from '../../src/schedule/runner.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import { createMemoryRateBudget } from '../../src/store/rate-budget.ts';
import {
  APP_ID,
  BOT_TOKEN as DISCORD_BOT_TOKEN,
  CHANNEL_ID,
  GUILD_ID,
  USER_ID,
  slashCommand,
  startFakeDiscord,
  type DiscordCall,
  type FakeDiscord,
  type OptionValue,
} from '../adapters/discord/fake-discord.ts';
import { startDiscordGateway } from '../adapters/discord/fake-config.ts';
import { generateKeys, post as postJson, signedHeaders } from '../adapters/discord/http-support.ts';
import {
  APP_TOKEN,
  BOT_TOKEN as SLACK_BOT_TOKEN,
  SIGNING_SECRET,
  postSigned,
  slashBody,
  slashPayload,
  startSlackFake,
  waitFor,
  type SlackFake,
} from '../adapters/slack/fakes.ts';
import { startSlackHttp } from '../adapters/slack/fake-config.ts';
import { attachSocketMode } from '../adapters/slack/fake-slack-socket.ts';
import { replica, SILENT_LOG, startWorld, type World } from '../schedule/world.ts';
import { ROOT, startHerald } from '../support/spawn-herald.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README's text under `heading` (a `##` or `###` line), up to the next heading of any level. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "${heading}" section`);
  const rest = README.slice(start + heading.length + 2);
  const end = rest.search(/\n#{2,3} /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The first match of `pattern` in `text`, its first group; fails naming what the README lacks. */
function find(text: string, pattern: RegExp, what: string): string {
  const m = pattern.exec(text);
  if (!m?.[1]) throw new Error(`README.md no longer says ${what} (${pattern})`);
  return m[1];
}

const SCHEDULED = section('## Scheduled reports');
const DISCORD = section('### Discord');
const SLACK = section('### Slack');

/** Scheduled reports, step 2: the line typed in #general; step 3: the same without preview:yes. */
const PREVIEW_LINE = find(SCHEDULED, /In #general type:\s+(\/schedule add .+)$/m, 'the /schedule add line');
const ADD_LINE = (() => {
  expect(SCHEDULED).toMatch(/type the line again without preview:yes to add it/);
  return PREVIEW_LINE.replace(/\s+preview:yes\b/, '');
})();

/** The line's words after `/schedule`, as Slack hands them to the app (`text`). */
const slackText = (line: string) => line.replace(/^\/schedule\s+/, '');

/**
 * The line as a Discord user enters it: `/schedule add` with each `name:value` as that option, the
 * quoted words as `when` and the command line after them as `command`, typed as the published
 * command declares each option.
 */
function discordOptions(line: string, declared: { name: string; type: number }[]): OptionValue[] {
  const rest = slackText(line).replace(/^add\s+/, '');
  const typeOf = (name: string) => declared.find((o) => o.name === name)?.type ?? 3;
  const valueOf = (name: string, raw: string) => (typeOf(name) === 5 ? raw === 'yes' : raw);
  const named = [...rest.matchAll(/(?:^|\s)([a-z]+):(\S+)/g)].filter(([, name]) =>
    declared.some((o) => o.name === name),
  );
  let left = rest;
  for (const [whole] of named) left = left.replace(whole.trim(), '');
  const when = find(left, /"([^"]+)"/, 'a quoted time in the /schedule add line');
  const command = left.replace(`"${when}"`, '').trim();
  return [
    { name: 'when', type: typeOf('when'), value: when },
    { name: 'command', type: typeOf('command'), value: command },
    ...named.map(([, name, raw]) => ({ name: name!, type: typeOf(name!), value: valueOf(name!, raw!) })),
  ];
}

/** Runs a README command line as written, in the project root, with `env`; resolves with its output. */
async function runAsWritten(command: string, env: Record<string, string>): Promise<string> {
  const run = startHerald(env, { shell: command, dropServiceVars: true });
  run.child.stdin.end();
  const code = await run.exited;
  expect(code, `${command}\n${run.out()}\n${run.err()}`).toBe(0);
  return run.out();
}

/** The schedule's first slot after it was added at 2026-03-27 12:00 UTC (a Friday). */
const SLOT = {
  /** "every weekday at 07:30" in Europe/Berlin: Monday 30 March, summer time (UTC+2) from the 29th. */
  at: new Date('2026-03-30T05:30:05Z'),
  words: /Mon, 30 Mar 2026, 07:30/,
};

/** Moves the clock into the slot and runs it: one post, and a second tick finds it settled. */
async function postSlot<T>(runner: ScheduleRunner, clock: { at: Date }, posts: () => T[]): Promise<T[]> {
  const before = posts().length;
  clock.at = SLOT.at;
  expect((await runner.tick()).map((o) => o.status)).toEqual(['posted']);
  expect(await runner.tick()).toEqual([]);
  return posts().slice(before);
}

/** The world a walkthrough adds its schedule in, on its own clock, with the bot's channel clients. */
async function walkthroughWorld(channels: ChannelClients, user: string) {
  const clock = { at: new Date('2026-03-27T12:00:00Z') };
  const now = () => clock.at;
  const world = await startWorld({ now, channels, allow: { users: [user], roles: [] } });
  const runner = replica(world, createMemoryStore({ now: () => clock.at.getTime() }), {
    now,
    owner: 'replica-a',
    channels,
  });
  return { clock, world, runner };
}

/** The `schedule` command `npm run register` published (the fake's last PUT), with its add options. */
function publishedAdd(fake: FakeDiscord): { name: string; type: number }[] {
  const put = fake.calls.filter((c) => c.kind === 'commands').at(-1);
  const published = (put?.json ?? []) as unknown as {
    name: string;
    options?: { name: string; type: number; options?: { name: string; type: number }[] }[];
  }[];
  const add = published.find((c) => c.name === 'schedule')?.options?.find((o) => o.name === 'add');
  expect(add, 'npm run register published /schedule add').toBeDefined();
  return add!.options ?? [];
}

/**
 * The answer to the interaction `token`: its deferral's edit, or the private follow-up an answer
 * only its invoker sees goes in (the deferral's public "…" then deleted).
 */
const answerTo = (token: string) => (c: DiscordCall) =>
  c.token === token && (c.kind === 'followup' || (c.kind === 'edit' && c.json?.content !== '…'));

/** An answer's visible text: content and embeds, as one string. */
const shown = (answer: Record<string, unknown>) => JSON.stringify([answer.content, answer.embeds]);

const channelPosts = (fake: FakeDiscord) => (): DiscordCall[] =>
  fake.calls.filter((c) => c.kind === 'message' && c.path === `/api/v10/channels/${CHANNEL_ID}/messages`);

/** The Discord walkthrough's variables (step 1), and DISCORD_GUILD_ID for an instant registration. */
function discordEnv(fake: FakeDiscord): Record<string, string> {
  for (const name of ['DISCORD_APPLICATION_ID', 'DISCORD_TOKEN', 'DISCORD_GUILD_ID'])
    expect(DISCORD).toContain(`\`${name}\``);
  return {
    DISCORD_APPLICATION_ID: APP_ID,
    DISCORD_TOKEN: DISCORD_BOT_TOKEN,
    DISCORD_GUILD_ID: GUILD_ID,
    DISCORD_API_URL: fake.apiUrl,
  };
}

describe("README: Discord's walkthrough, gateway mode", () => {
  let fake: FakeDiscord;
  let channels: ChannelClients;
  let setup: Awaited<ReturnType<typeof walkthroughWorld>>;
  let adapter: ChatAdapter;
  let n = 0;
  beforeAll(async () => {
    fake = await startFakeDiscord();
    channels = createChannelClients({ discord: { token: DISCORD_BOT_TOKEN, apiUrl: fake.apiUrl } });
    setup = await walkthroughWorld(channels, USER_ID);
  });
  afterAll(async () => {
    await setup.runner.stop();
    await adapter?.stop();
    await closeChannelClients(channels);
    await setup.world.close();
    await fake.close();
  });

  /** Sends the line from the guild channel as Discord does; resolves with the edited answer. */
  async function type(line: string, declared: { name: string; type: number }[]) {
    const token = `readme-gateway-${++n}-aW50ZXJhY3Rpb246`;
    const options = discordOptions(line, declared);
    fake.dispatch(
      'INTERACTION_CREATE',
      slashCommand({ name: 'schedule', subcommand: 'add', token, options }),
    );
    return (await fake.waitFor(answerTo(token), 10_000)).json!;
  }

  it('registers with step 3, then adds the schedule in the channel and posts its slot there', async () => {
    const register = find(DISCORD, /^3\. `(npm run register)`/m, "step 3's npm run register");
    await runAsWritten(register, discordEnv(fake));
    const put = fake.calls.filter((c) => c.kind === 'commands').at(-1)!;
    // DISCORD_GUILD_ID's server, which is instant.
    expect(put.path).toBe(`/api/v10/applications/${APP_ID}/guilds/${GUILD_ID}/commands`);
    const declared = publishedAdd(fake);

    // Step 4, `npm start`: the bot on the gateway with the commands it offers.
    adapter = await startDiscordGateway(fake, setup.world.registry, setup.world.dispatcher, SILENT_LOG);
    const preview = await type(PREVIEW_LINE, declared);
    expect(shown(preview)).toContain('not posted, not added');
    expect(await setup.world.store.listSchedules()).toEqual([]);

    const added = await type(ADD_LINE, declared);
    const [record] = await setup.world.store.listSchedules();
    expect(record).toMatchObject({ destination: `channel:discord:${CHANNEL_ID}`, timezone: 'Europe/Berlin' });
    expect(shown(added)).toContain('in this channel');

    const [posted] = await postSlot(setup.runner, setup.clock, channelPosts(fake));
    expect(posted!.authorization).toBe(`Bot ${DISCORD_BOT_TOKEN}`);
    expect(JSON.stringify(posted!.json)).toContain('Berlin');
    expect(fake.contract.counts).toMatchObject({ invalid: 0, globalRefusals: 0, routeRefusals: 0 });
  });
});

describe("README: Discord's walkthrough, HTTP interactions", () => {
  let fake: FakeDiscord;
  let channels: ChannelClients;
  let setup: Awaited<ReturnType<typeof walkthroughWorld>>;
  let stop: (() => Promise<void>) | undefined;
  const keys = generateKeys();
  let n = 0;
  beforeAll(async () => {
    fake = await startFakeDiscord();
    channels = createChannelClients({ discord: { token: DISCORD_BOT_TOKEN, apiUrl: fake.apiUrl } });
    setup = await walkthroughWorld(channels, USER_ID);
  });
  afterAll(async () => {
    await setup.runner.stop();
    await stop?.();
    await closeChannelClients(channels);
    await setup.world.close();
    await fake.close();
  });

  /** herald's public server with the Discord adapter in HTTP mode, as main.ts serves it on PORT. */
  async function serve(path: string): Promise<string> {
    const routes = createRoutes();
    const server = await startHealthServer({ port: 0, checks: [], metrics: createMetrics(), routes });
    const interactions = createHttpInteractions({
      publicKey: discordPublicKey(keys.publicKeyHex),
      log: SILENT_LOG,
    });
    routes.add(path, interactions.route);
    const adapter = createDiscordAdapter({
      config: {
        token: DISCORD_BOT_TOKEN,
        applicationId: APP_ID,
        guildId: GUILD_ID,
        apiUrl: fake.apiUrl,
        mode: 'http',
        publicKey: keys.publicKeyHex,
        interactionsPath: path,
      },
      log: SILENT_LOG,
      webhook: fake.webhook,
      interactions,
    });
    await adapter.start(setup.world.registry, setup.world.dispatcher);
    stop = async () => {
      await adapter.stop();
      await server.close();
    };
    return `http://127.0.0.1:${server.port}${path}`;
  }

  /** Posts the line as Discord posts an interaction, signed; resolves with the edited answer. */
  async function type(url: string, line: string, declared: { name: string; type: number }[]) {
    const token = `readme-http-${++n}-aW50ZXJhY3Rpb246`;
    const options = discordOptions(line, declared);
    const body = JSON.stringify(slashCommand({ name: 'schedule', subcommand: 'add', token, options }));
    const answered = await postJson(url, body, signedHeaders(keys, body));
    expect(answered.status).toBe(200);
    return (await fake.waitFor(answerTo(token), 10_000)).json!;
  }

  it('sets the endpoint as written, then adds the schedule in the channel and posts its slot there', async () => {
    // The paragraph's variables: the mode, the application's public key, and PORT, which it serves.
    for (const said of ['`DISCORD_MODE=http`', '`DISCORD_PUBLIC_KEY`', 'serve `PORT`'])
      expect(DISCORD).toContain(said);
    const register = find(DISCORD, /`(npm run register -- --endpoint \S+)`/, 'the --endpoint registration');
    const endpoint = new URL(find(register, /--endpoint (\S+)/, 'the endpoint URL'));
    const printed = await runAsWritten(register, {
      ...discordEnv(fake),
      DISCORD_MODE: 'http',
      DISCORD_PUBLIC_KEY: keys.publicKeyHex,
      PORT: '8080',
    });
    expect(printed).toContain(`Interactions endpoint set to ${endpoint.href}`);
    expect(fake.calls.filter((c) => c.kind === 'application').at(-1)?.json).toEqual({
      interactions_endpoint_url: endpoint.href,
    });
    const declared = publishedAdd(fake);

    const url = await serve(endpoint.pathname);
    const preview = await type(url, PREVIEW_LINE, declared);
    expect(shown(preview)).toContain('not posted, not added');
    const added = await type(url, ADD_LINE, declared);
    const [record] = await setup.world.store.listSchedules();
    expect(record).toMatchObject({ destination: `channel:discord:${CHANNEL_ID}`, timezone: 'Europe/Berlin' });
    expect(shown(added)).toContain('in this channel');

    const [posted] = await postSlot(setup.runner, setup.clock, channelPosts(fake));
    expect(JSON.stringify(posted!.json)).toContain('Berlin');
    expect(fake.contract.counts).toMatchObject({ invalid: 0, globalRefusals: 0, routeRefusals: 0 });
  });
});

describe("README: Slack's walkthrough, step 1's manifests", () => {
  it('writes each manifest as written, with /schedule, the scopes step 1 names, and its mode', async () => {
    const lines = [...SLACK.matchAll(/^\s*(npm run register -- --slack-manifest[^#\n]*?)\s*(?:#.*)?$/gm)].map(
      (m) => m[1]!,
    );
    expect(lines).toHaveLength(2);
    const dir = mkdtempSync(join(tmpdir(), 'herald-readme-'));
    for (const line of lines) {
      const out = join(dir, 'manifest.json');
      await runAsWritten(line.replace(/--out manifest\.json/, `--out ${out}`), {
        SLACK_BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
      });
      const manifest = JSON.parse(readFileSync(out, 'utf8')) as {
        features: { slash_commands: { command: string; url?: string }[] };
        oauth_config: { scopes: { bot: string[] } };
        settings: { socket_mode_enabled?: boolean };
      };
      const schedule = manifest.features.slash_commands.find((c) => c.command === '/schedule');
      expect(schedule).toBeDefined();
      for (const scope of [
        'commands',
        'chat:write',
        'files:write',
        'channels:read',
        'groups:read',
        'im:write',
      ]) {
        expect(SLACK).toContain(`\`${scope}\``);
        expect(manifest.oauth_config.scopes.bot).toContain(scope);
      }
      const requestUrl = /--request-url (\S+)/.exec(line)?.[1];
      if (requestUrl === undefined) expect(manifest.settings.socket_mode_enabled).toBe(true);
      else expect(schedule?.url).toBe(requestUrl);
    }
  });
});

/** How the line reaches the app in one of step 3's modes, and what it answers on response_url. */
interface SlackMode {
  name: string;
  /** The variables step 3 names for the mode (with step 2's bot token). */
  variables: string[];
  start(
    fake: SlackFake,
    world: World,
  ): Promise<{ type(line: string): Promise<Record<string, unknown>>; stop(): Promise<void> }>;
}

let typed = 0;
/** Waits for the answer Bolt sends to response_url `id`. */
async function answerAt(fake: SlackFake, id: string): Promise<Record<string, unknown>> {
  const [answer] = await waitFor(
    () => (fake.responses(id).length > 0 ? fake.responses(id) : undefined),
    10_000,
  );
  return answer!;
}

const SLACK_MODES: SlackMode[] = [
  {
    name: 'Socket Mode',
    variables: ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'connections:write'],
    async start(fake, world) {
      const sockets = await attachSocketMode(fake);
      const adapter = createSlackAdapter({
        config: {
          botToken: SLACK_BOT_TOKEN,
          appToken: APP_TOKEN,
          signingSecret: undefined,
          apiUrl: `${fake.server.url}/api/`,
          port: 3000,
        },
        log: SILENT_LOG,
      });
      await adapter.start(world.registry, world.dispatcher);
      return {
        async type(line) {
          const id = `readme-socket-${++typed}`;
          const envelope = `readme-envelope-${typed}`;
          sockets.send({
            envelope_id: envelope,
            type: 'slash_commands',
            accepts_response_payload: true,
            payload: slashPayload('/schedule', slackText(line), fake.responseUrl(id)),
          });
          await waitFor(() => sockets.received.find((m) => m.envelope_id === envelope));
          return answerAt(fake, id);
        },
        async stop() {
          await adapter.stop();
          await sockets.close();
        },
      };
    },
  },
  {
    name: 'HTTP mode',
    variables: ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'PORT'],
    async start(fake, world) {
      const served = await startSlackHttp(fake, world.registry, world.dispatcher, SILENT_LOG);
      return {
        async type(line) {
          const id = `readme-http-${++typed}`;
          const sent = await postSigned(
            served.url,
            slashBody('/schedule', slackText(line), fake.responseUrl(id)),
          );
          expect(sent.status).toBe(200);
          return answerAt(fake, id);
        },
        stop: served.stop,
      };
    },
  },
];

describe.each(SLACK_MODES)("README: Slack's walkthrough, $name", (mode) => {
  const CHANNEL = 'C0GENERAL';
  const USER = 'U0ALICE';
  let fake: SlackFake;
  let channels: ChannelClients;
  let setup: Awaited<ReturnType<typeof walkthroughWorld>>;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    fake = await startSlackFake();
    // Slack's pace is the rate budget's, which the bot's entry points always give its clients.
    channels = createChannelClients(
      { slack: { botToken: SLACK_BOT_TOKEN, apiUrl: `${fake.server.url}/api` } },
      { rateBudget: createMemoryRateBudget({ perSecond: 50, invalidLimit: 1_000 }) },
    );
    setup = await walkthroughWorld(channels, USER);
  });
  afterAll(async () => {
    await setup.runner.stop();
    await stop?.();
    await closeChannelClients(channels);
    await setup.world.close();
    await fake.server.close();
  });

  it('adds the schedule in the channel as step 2 and 3 of Scheduled reports say, and posts its slot there', async () => {
    // Steps 2 and 3: the mode's variables; step 4, the invite to the channel.
    for (const name of mode.variables) expect(SLACK).toContain(`\`${name}\``);
    expect(SLACK).toContain('`/invite @herald`');
    const app = await mode.start(fake, setup.world);
    stop = app.stop;

    const preview = await app.type(PREVIEW_LINE);
    expect(JSON.stringify(preview.blocks)).toContain('not posted, not added');
    expect(await setup.world.store.listSchedules()).toEqual([]);
    const added = await app.type(ADD_LINE);
    const [record] = await setup.world.store.listSchedules();
    expect(record).toMatchObject({ destination: `channel:slack:${CHANNEL}`, timezone: 'Europe/Berlin' });
    expect(String(added.text)).toContain('in this channel');

    const posts = () => fake.server.requests.filter((r) => r.pathname === '/api/chat.postMessage');
    const [posted] = await postSlot(setup.runner, setup.clock, posts);
    const form = new URLSearchParams(posted!.body);
    expect(form.get('channel')).toBe(CHANNEL);
    expect(form.get('blocks')).toContain('Berlin');
  });
});
