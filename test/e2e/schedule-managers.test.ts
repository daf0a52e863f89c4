// Who may manage whose schedules, end to end: herald as its own process with Slack in HTTP mode,
// sent signed slash commands as Slack sends them, its replies read from a fake response_url, and
// the services on a loopback fake that records every request. The console cannot show this (its
// user is always the operator): a user allowed to manage schedules but not to use /host must not
// make the Shodan lookup by running, pausing or removing another user's /host schedule, and a
// manual run of another user's /say schedule spends the asker's /say budget, not the creator's.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxHandlers } from '../../src/sandbox/index.ts';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import {
  BOT_TOKEN,
  SIGNING_SECRET,
  postSigned,
  slashBody,
  startSlackFake,
  waitFor,
  type SlackFake,
} from '../adapters/slack/fakes.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { startHerald, type HeraldProcess } from '../support/spawn-herald.ts';

const HOST = { id: 'UHOST', name: 'hana' };
const OTHER = { id: 'UALLOWED', name: 'dee' };
type User = typeof HOST;

/** Exactly 400 characters, a sentence Slack passes through unescaped. */
const SPEECH = 'Deploy finished and every check passed. '.repeat(10).slice(0, 399) + '!';
/** A daily time half a day away, so no scheduled slot fires while the test runs. */
const WHEN = `every day at ${String((new Date().getUTCHours() + 12) % 24).padStart(2, '0')}:00`;

/** Generous: the machine is shared and loaded; nothing here is timed. */
const ANSWER_MS = 15_000;
const START_MS = 20_000;

let slack: SlackFake;
let services: SandboxServer;
let dir: string;
let herald: HeraldProcess | undefined;
let port = 0;
let sent = 0;

const hostLookups = () => services.requests.filter((r) => r.pathname.startsWith('/hostscan'));
const speeches = () => services.requests.filter((r) => r.pathname.startsWith('/speech/v1/text-to-speech'));
const posts = () => services.requests.filter((r) => r.pathname.startsWith('/webhook'));

/** Starts herald on Slack's HTTP mode with the services on the fake; resolves once it listens. */
async function start(extra: Record<string, string> = {}): Promise<void> {
  const h = startHerald(
    {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: `${slack.server.url}/api/`,
      PORT: '0',
      SANDBOX: 'off',
      HOSTSCAN_BASE_URL: sandboxBaseUrl(services.url, 'hostscan'),
      HOSTSCAN_API_KEY: 'e2e-hostscan-key-3f9a',
      SPEECH_BASE_URL: sandboxBaseUrl(services.url, 'speech'),
      SPEECH_API_KEY: 'e2e-speech-key-71c2',
      SPEECH_VOICE_ID: '21m00Tcm4TlvDq8ikWAM',
      WEBHOOK_URL: `${sandboxBaseUrl(services.url, 'webhook')}/100000000000000001/e2e-webhook-token-5d0e`,
      SCHEDULE_ALLOWED_USERS: `${OTHER.id},${HOST.id}`,
      HOST_ALLOWED_USERS: HOST.id,
      SAY_DAILY_CHARS: '1000',
      // Many commands a minute from one user here; the per-minute limit is not under test.
      RATE_LIMIT_PER_MINUTE: '1000',
      SCHEDULE_TZ: 'UTC',
      STORE_URL: join(dir, 'herald.sqlite'),
      AUDIO_DIR: join(dir, 'audio'),
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      ...extra,
    },
    { dropServiceVars: true },
  );
  herald = h;
  await waitFor(
    () =>
      h
        .err()
        .split('\n')
        .find((l) => l.includes('"slack.started"')),
    START_MS,
  ).catch((err: Error) => {
    throw new Error(`${err.message}: herald did not start\nstderr:\n${h.err().slice(-3_000)}`);
  });
  // Slack's events are served on herald's HTTP server on PORT, which says where it listens.
  const line = h
    .err()
    .split('\n')
    .find((l) => l.includes('"HTTP server on '));
  port = (JSON.parse(line ?? '{}') as { port: number }).port;
}

/** Ends herald as a platform does (SIGTERM) and expects a clean exit. */
async function stop(): Promise<void> {
  const h = herald;
  if (!h) return;
  herald = undefined;
  h.child.kill('SIGTERM');
  expect(await h.exited, h.err().slice(-3_000)).toBe(0);
}

/** Sends `/command text` as `user` typed it in Slack; resolves with herald's one answer (its JSON body). */
async function send(user: User, command: string, text: string): Promise<Record<string, unknown>> {
  sent += 1;
  const id = `cmd${sent}`;
  const body = new URLSearchParams(slashBody(command, text, slack.responseUrl(id)));
  body.set('user_id', user.id);
  body.set('user_name', user.name);
  const ack = await postSigned(`http://127.0.0.1:${port}/slack/events`, body.toString());
  expect(ack.status).toBe(200);
  const [answer] = await waitFor(() => {
    const got = slack.responses(id);
    return got.length > 0 ? got : undefined;
  }, ANSWER_MS).catch((err: Error) => {
    throw new Error(
      `${err.message}: no answer to ${command} ${text}\nstderr:\n${herald?.err().slice(-3_000)}`,
    );
  });
  return answer!;
}

/** The text of herald's answer to `/command text` typed by `user`. */
/** The answer's text; a failure's reference (8 hex digits, before the full stop) taken out. */
const type = async (user: User, command: string, text: string): Promise<string> =>
  String((await send(user, command, text))['text']).replace(/ \(ref [0-9a-f]{8}\)(?=\.?$)/, '');

/**
 * A schedule posting to a destination set by environment is its creator's, the admins' and the
 * operator's: to anyone else its id reads as unknown, so it says nothing of the schedule.
 */
const unknown = (id: string) => `There is no schedule "${id}"; /schedule list shows them all.`;

// Each test waits on a few answers of ANSWER_MS at most: more than vitest's default per test.
describe("managing another user's schedule through Slack, end to end", { timeout: 90_000 }, () => {
  let hostId: string;
  let sayId: string;

  beforeAll(async () => {
    slack = await startSlackFake();
    services = await startFake(sandboxHandlers());
    dir = await mkdtemp(join(tmpdir(), 'herald-deputy-'));
    await start();
  }, 60_000);

  afterAll(async () => {
    if (herald) {
      herald.child.kill('SIGKILL');
      await herald.exited;
    }
    await slack?.server.close();
    await services?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lets the /host user add a /host schedule, with no lookup yet', async () => {
    const added = await type(HOST, '/schedule', `add to:default "${WHEN}" /host 8.8.8.8`);
    expect(added).toMatch(/^Schedule \w+ added: /);
    hostId = /^Schedule (\w+) added/.exec(added)![1]!;
    expect(hostLookups()).toEqual([]);
  });

  it("refuses another schedule manager's own /host, and their run of the /host schedule, with no lookup", async () => {
    expect(await type(OTHER, '/host', '8.8.8.8')).toBe(
      `You are not allowed to use /host: ask an admin to add you (user id ${OTHER.id}) to HOST_ALLOWED_USERS.`,
    );
    expect(await type(OTHER, '/schedule', `run ${hostId}`)).toBe(unknown(hostId));
    expect(hostLookups()).toEqual([]);
    expect(posts()).toEqual([]);
  });

  it('refuses them pause, resume and remove, each in one sentence, and the schedule stays', async () => {
    for (const verb of ['pause', 'resume', 'remove'])
      expect(await type(OTHER, '/schedule', `${verb} ${hostId}`)).toBe(unknown(hostId));
    // Still listed, still running: nothing of the refused changes took.
    const listed = JSON.stringify(await send(HOST, '/schedule', 'list'));
    expect(listed).toContain(`*${hostId} · ${WHEN}*`);
    expect(listed).not.toMatch(/paused/i);
    expect(hostLookups()).toEqual([]);
  });

  it("runs the creator's own manual run: one lookup, one post", async () => {
    expect(await type(HOST, '/schedule', `run ${hostId}`)).toBe(
      `Schedule ${hostId} posted /host 8.8.8.8 to default.`,
    );
    expect(hostLookups()).toHaveLength(1);
    expect(hostLookups()[0]!.pathname).toBe('/hostscan/shodan/host/8.8.8.8');
    expect(posts()).toHaveLength(1);
  });

  it('lets the /host user add a 400-character /say schedule', async () => {
    expect(SPEECH).toHaveLength(400);
    const added = await type(HOST, '/schedule', `add to:default "${WHEN}" /say "${SPEECH}"`);
    expect(added).toMatch(/^Schedule \w+ added: /);
    sayId = /^Schedule (\w+) added/.exec(added)![1]!;
    expect(speeches()).toEqual([]);
  });

  describe('with SCHEDULE_ADMIN_USERS naming the other manager', () => {
    // The operator's change of configuration: a restart on the same store.
    beforeAll(async () => {
      await stop();
      await start({ SCHEDULE_ADMIN_USERS: OTHER.id });
    }, 60_000);

    it("checks the admin's manual run against the admin: no /host rights, no lookup", async () => {
      const ran = await type(OTHER, '/schedule', `run ${hostId}`);
      expect(ran).toBe(
        `Schedule ${hostId} failed: You are not allowed to use /host: ask an admin to add you (user id ${OTHER.id}) to HOST_ALLOWED_USERS.`,
      );
      expect(hostLookups()).toHaveLength(1);
      expect(posts()).toHaveLength(1);
    });

    it("lets the admin pause and resume the creator's schedule", async () => {
      expect(await type(OTHER, '/schedule', `pause ${hostId}`)).toBe(
        `Schedule ${hostId} is paused; /schedule resume ${hostId} starts it again.`,
      );
      expect(await type(OTHER, '/schedule', `resume ${hostId}`)).toMatch(
        new RegExp(`^Schedule ${hostId} resumed; next run `),
      );
    });

    it("charges the admin's manual runs of the /say schedule to the admin's budget, not the creator's", async () => {
      const posted = `Schedule ${sayId} posted /say "${SPEECH}" to default.`;
      expect(await type(OTHER, '/schedule', `run ${sayId}`)).toBe(posted);
      expect(await type(OTHER, '/schedule', `run ${sayId}`)).toBe(posted);
      // 800 of the admin's 1,000 characters spent: a third run is over the admin's budget.
      expect(await type(OTHER, '/schedule', `run ${sayId}`)).toBe(
        `Schedule ${sayId} failed: That needs 400 characters, but your /say budget has 200 left today; it resets at midnight UTC.`,
      );
      expect(speeches()).toHaveLength(2);
      expect(posts()).toHaveLength(3);
      // The creator's budget is whole: two runs of their own (800 characters) both post.
      expect(await type(HOST, '/schedule', `run ${sayId}`)).toBe(posted);
      expect(await type(HOST, '/schedule', `run ${sayId}`)).toBe(posted);
      expect(speeches()).toHaveLength(4);
      expect(posts()).toHaveLength(5);
      expect(hostLookups()).toHaveLength(1);
    });

    it('ends on SIGTERM with exit code 0', stop);
  });
});
