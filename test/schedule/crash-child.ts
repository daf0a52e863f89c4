// A replica for the SIGKILL tests: one schedule runner on the shared Redis, its clock fixed at NOW,
// posting through the real destination clients (WEBHOOK_URL_<NAME>, and the bot's own channel
// clients when DISCORD_API_URL or SLACK_API_URL is set) to the parent's loopback fakes. Its tick
// claims every due slot. CRASH_AT=run (the default): each command prints "running" and hangs.
// CRASH_AT=in-flight: each command answers, and the posts go out to fakes that hold their answers.
// Either way the process stays until the parent kills it with SIGKILL.
import type { ConfigProblem } from '../../src/errors.ts';
import { loadScheduleConfig } from '../../src/config/schedule.ts';
import type { Reply } from '../../src/core/reply.ts';
import {
  createChannelClients,
  createDestinationClients,
  destinationMessages,
} from '../../src/destinations.ts';
import { createScheduleRunner } from '../../src/schedule/runner.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';

const env = process.env;
const nowMs = Date.parse(env.NOW ?? '');
const keyPrefix = env.KEY_PREFIX ?? 'herald:';
const url = env.REDIS_URL ?? '';
const isInFlight = env.CRASH_AT === 'in-flight';
const silent = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
// A bare pending promise holds nothing open: Node could exit on its own (code 13) before the
// parent's SIGKILL. The timer keeps the process alive until it is killed.
const hang = () => new Promise<never>(() => setInterval(() => undefined, 60_000));

const problems: ConfigProblem[] = [];
const config = loadScheduleConfig(env, undefined, problems);
if (problems.length > 0) {
  process.stderr.write(`${JSON.stringify(problems)}\n`);
  process.exit(2);
}
const channels = createChannelClients({
  discord: env.DISCORD_API_URL ? { apiUrl: env.DISCORD_API_URL, token: env.DISCORD_TOKEN ?? '' } : undefined,
  slack: env.SLACK_API_URL ? { apiUrl: env.SLACK_API_URL, botToken: env.SLACK_BOT_TOKEN ?? '' } : undefined,
});

/** What this replica's commands answer in CRASH_AT=in-flight: the same report for every line. */
const report = (line: string): Reply => ({
  text: `${line}: report of ${env.NOW ?? ''}`,
  embeds: [{ title: 'Weather in Oslo, NO', description: 'Clear sky', color: 'info' }],
});

const runner = createScheduleRunner({
  store: await createRedisStore(url, { now: () => nowMs, keyPrefix }),
  services: {},
  destinations: createDestinationClients(config),
  delivery: { channels },
  commands: () => ({
    run: (line) => {
      if (isInFlight) return Promise.resolve(report(line));
      process.stdout.write('running\n');
      return hang();
    },
  }),
  toMessage: destinationMessages(config, 'herald'),
  log: silent,
  now: () => new Date(nowMs),
  owner: 'doomed-replica',
  catchupMinutes: 60,
  leaseMs: Number(env.LEASE_MS ?? 60_000),
});
await runner.tick();
await hang();
