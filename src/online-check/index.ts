// `npm start -- --check --online`: after the offline report, asks each platform, destination,
// provider and Redis whether what the configuration names works, one line per item with the fix,
// before a team trusts its first scheduled report. Exit 0 when nothing failed, 1 otherwise.
import type { Config } from '../config/index.ts';
import type { ServicePlan } from '../sandbox/resolve.ts';
import { checkDiscordToken, checkDiscordWebhook } from './discord.ts';
import { formatCheckLine, type CheckLine } from './lines.ts';
import { checkProviders } from './providers.ts';
import { checkSlack, checkSlackWebhook } from './slack.ts';

export interface OnlineCheckDeps {
  /** The bot scopes herald's Slack app asks for (the manifest's). */
  slackScopes: readonly string[];
  out(text: string): void;
}

/** The variable a destination comes from, for the fix. */
function variableOf(name: string): string {
  return name === 'default' ? 'WEBHOOK_URL' : `WEBHOOK_URL_${name.toUpperCase()}`;
}

async function checkDestination(
  name: string,
  destination: Config['schedule']['destinations'][string],
  plan: ServicePlan,
): Promise<CheckLine> {
  if (name === 'default' && plan.modes.webhook !== 'real')
    return { status: 'note', item: `destination ${name}`, text: `${plan.modes.webhook}: nothing to check` };
  return destination.kind === 'slack'
    ? checkSlackWebhook(name, variableOf(name), destination)
    : checkDiscordWebhook(name, variableOf(name), destination);
}

function checkDestinations(config: Config, plan: ServicePlan): Promise<CheckLine[]> {
  return Promise.all(
    Object.entries(config.schedule.destinations).map(([name, destination]) =>
      checkDestination(name, destination, plan),
    ),
  );
}

async function checkRedisOnline(url: string | undefined, verifyTls: boolean): Promise<CheckLine[]> {
  if (url === undefined) return [];
  const [{ connectRedis }, { judgeRedis, readRedisSettings }] = await Promise.all([
    import('../redis.ts'),
    import('../redis-check.ts'),
  ]);
  const where = new URL(url);
  const host = `${where.hostname}:${where.port || '6379'}`;
  const quiet = { info: () => {}, warn: () => {} };
  let redis;
  try {
    redis = await connectRedis(url, { log: quiet, verifyTls, connectTimeoutMs: 5_000 });
  } catch {
    return [
      {
        status: 'fail',
        item: 'redis',
        text: `could not connect to ${host}: check REDIS_URL and the network`,
      },
    ];
  }
  try {
    const verdict = judgeRedis(await readRedisSettings(redis), host);
    if (verdict.refusal !== undefined) return [{ status: 'fail', item: 'redis', text: verdict.refusal }];
    return verdict.lines.map((l) => ({ status: l.warn ? 'note' : 'ok', item: 'redis', text: l.text }));
  } finally {
    redis.disconnect();
  }
}

/** Runs every check at once, prints one line each in a fixed order, and returns the exit code. */
export async function runOnlineCheck(
  config: Config,
  plan: ServicePlan,
  deps: OnlineCheckDeps,
): Promise<number> {
  const groups = await Promise.all([
    config.discord ? checkDiscordToken(config.discord) : Promise.resolve([]),
    config.slack ? checkSlack(config.slack, deps.slackScopes) : Promise.resolve([]),
    checkDestinations(config, plan),
    checkProviders(config, plan),
    checkRedisOnline(config.redisUrl, config.redisTlsVerify),
  ]);
  const lines = groups.flat();
  if (!config.discord && !config.slack)
    lines.unshift({
      status: 'note',
      item: 'platform',
      text: 'no DISCORD_TOKEN or SLACK_BOT_TOKEN: nothing to check on a chat platform',
    });
  const failed = lines.filter((l) => l.status === 'fail').length;
  deps.out(`\nOnline check:\n${lines.map(formatCheckLine).join('\n')}\n`);
  deps.out(
    failed === 0 ? 'Every item answered as herald needs.\n' : `${failed} item(s) need the fix named above.\n`,
  );
  return failed === 0 ? 0 : 1;
}
