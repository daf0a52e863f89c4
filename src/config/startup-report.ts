// The start-up report: one line per fact of the configuration herald runs with (where it came
// from, each service real / simulated / disabled, the store, the health endpoints, the chat
// platforms). main.ts logs each line at start; `npm start -- --check` prints them as text.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Environment } from './file.ts';
import type { Config } from './index.ts';
import { SERVICE_KEYS } from '../domain/services.ts';
import type { ServicePlan } from '../sandbox/resolve.ts';
import { describeStore } from '../store/index.ts';
import { sqliteLeftBehind } from '../store-move/left-behind.ts';
import { destinationModeOf } from '../schedule/simulated.ts';

export interface ReportLine {
  text: string;
  /** The same fact as log fields. */
  fields: Record<string, unknown>;
  /** Logged as a warning. */
  warn?: true;
}

function sourceLine(environment: Pick<Environment, 'file' | 'fromFile'>): ReportLine {
  if (environment.file === undefined)
    return { text: 'configuration: the environment (no .env file)', fields: { envFile: null } };
  return {
    text: `configuration: the environment and ${environment.file} (${environment.fromFile} variables read from it; the environment wins)`,
    fields: { envFile: environment.file, fromFile: environment.fromFile },
  };
}

function serviceLines(config: Config, plan: ServicePlan): ReportLine[] {
  return SERVICE_KEYS.map((key) => {
    const mode = plan.modes[key];
    const real = config.services[key];
    if (mode === 'real' && real) {
      const origin = new URL(real.baseUrl).origin;
      return { text: `service ${key}: real`, fields: { service: key, mode, origin } };
    }
    if (mode === 'simulated')
      return { text: `service ${key}: simulated by the built-in sandbox`, fields: { service: key, mode } };
    return {
      text: `service ${key}: disabled (set ${config.serviceVariables[key]})`,
      fields: { service: key, mode },
    };
  });
}

/**
 * Each destination scheduled posts can go to, real or simulated: a schedule whose command uses a
 * simulated service is refused for a real one unless SCHEDULE_ALLOW_SIMULATED marks it.
 */
function destinationLine(config: Config, plan: ServicePlan): ReportLine {
  const names = [
    'default',
    ...Object.keys(config.schedule.destinations).filter((name) => name !== 'default'),
  ];
  const modes = Object.fromEntries(names.map((name) => [name, destinationModeOf(name, plan)]));
  const words = names
    .map((name) => `${name} ${modes[name]}${modes[name] === 'disabled' ? ' (set WEBHOOK_URL)' : ''}`)
    .join(', ');
  const allow = config.scheduleAllowSimulated
    ? ' (SCHEDULE_ALLOW_SIMULATED: simulated data posted marked)'
    : '';
  return {
    text: `schedule destinations: ${words}${allow}`,
    fields: { destinations: modes, allowSimulated: config.scheduleAllowSimulated },
  };
}

function platformLine(config: Config): ReportLine {
  const platforms = [config.discord && 'discord', config.slack && 'slack'].filter(Boolean) as string[];
  if (platforms.length === 0)
    return {
      text: 'chat: the console (no DISCORD_TOKEN or SLACK_BOT_TOKEN)',
      fields: { platforms: ['console'] },
    };
  return { text: `chat: ${platforms.join(' and ')}`, fields: { platforms } };
}

function healthLines(config: Config): ReportLine[] {
  const h = config.health;
  if (!h) return [{ text: 'health endpoints: off (set HEALTH_PORT)', fields: { health: null } }];
  const host = h.host.includes(':') ? `[${h.host}]` : h.host;
  const metrics =
    h.metricsPort !== undefined
      ? `; /metrics on port ${h.metricsPort}`
      : h.isMetricsOnPort
        ? ', /metrics'
        : '; /metrics off (METRICS_PORT serves it on a port of its own)';
  const lines: ReportLine[] = [
    { text: `health endpoints: http://${host}:${h.port}/healthz, /readyz${metrics}`, fields: { health: h } },
  ];
  // A platform sets PORT and probes it from outside the process's loopback.
  if (h.portVariable === 'PORT' && h.defaultHost && h.host === '127.0.0.1')
    lines.push({
      text: `health endpoints on loopback only (${h.host}), where a platform's probes cannot reach them: set HEALTH_HOST=0.0.0.0 to serve them on every interface`,
      fields: { healthHost: h.host, loopbackOnly: true },
      warn: true,
    });
  return lines;
}

/** Whether herald can write `path`, or create it: the nearest existing of it and its folders decides. */
function canWrite(path: string): boolean {
  const target = resolve(path);
  let at = target;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  // A file where a folder of the path should be: nothing can be created beneath it.
  if (at !== target && !statSync(at).isDirectory()) return false;
  try {
    accessSync(at, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function storeLines(config: Config): ReportLine[] {
  const store = describeStore(config);
  const lines: ReportLine[] = [{ text: `store: ${store}`, fields: { store } }];
  const isTls = [config.storeUrl, config.redisUrl].some((url) => url?.startsWith('rediss:'));
  if (isTls && !config.redisTlsVerify)
    lines.push({
      text: "Redis's TLS certificate is not checked (REDIS_TLS_VERIFY=false): the connection is encrypted, but a server posing as Redis would not be refused",
      fields: { redisTlsVerify: false },
    });
  const leftBehind = sqliteLeftBehind(config);
  if (leftBehind) lines.push(leftBehind);
  if (!store.startsWith('sqlite ')) return lines;
  const where = config.ephemeralDisk
    ? "is on a Heroku dyno's disk (DYNO is set), which is emptied at every restart"
    : !canWrite(config.storeUrl)
      ? 'cannot be written here (a container without a volume?)'
      : undefined;
  if (where)
    lines.push({
      text: `the store's SQLite file ${config.storeUrl} ${where}, so schedules and what scheduled reports remember will be lost: set REDIS_URL to keep them`,
      fields: { store, ephemeralDisk: config.ephemeralDisk },
      warn: true,
    });
  return lines;
}

export function configReport(
  config: Config,
  plan: ServicePlan,
  environment: Pick<Environment, 'file' | 'fromFile'>,
): ReportLine[] {
  const lines = [sourceLine(environment), platformLine(config), ...serviceLines(config, plan)];
  lines.push(destinationLine(config, plan));
  if (config.sandbox === 'on' && (config.discord || config.slack)) {
    lines.push({
      text: 'SANDBOX=on with a chat platform: its users get simulated data',
      fields: { sandbox: 'on' },
      warn: true,
    });
  }
  lines.push(...storeLines(config), ...healthLines(config));
  return lines;
}
