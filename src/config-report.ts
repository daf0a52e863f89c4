// The start-up report: one line per fact of the configuration herald runs with (where it came
// from, each service real / simulated / disabled, the store, the health endpoints, the chat
// platforms). main.ts logs each line at start; `npm start -- --check` prints them as text.
import type { Environment } from './config-file.ts';
import type { Config } from './config.ts';
import { SERVICE_KEYS } from './domain/services.ts';
import type { ServicePlan } from './sandbox/resolve.ts';
import { describeStore } from './store/index.ts';

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

function platformLine(config: Config): ReportLine {
  const platforms = [config.discord && 'discord', config.slack && 'slack'].filter(Boolean) as string[];
  if (platforms.length === 0)
    return {
      text: 'chat: the console (no DISCORD_TOKEN or SLACK_BOT_TOKEN)',
      fields: { platforms: ['console'] },
    };
  return { text: `chat: ${platforms.join(' and ')}`, fields: { platforms } };
}

function healthLine(config: Config): ReportLine {
  const h = config.health;
  if (!h) return { text: 'health endpoints: off (set HEALTH_PORT)', fields: { health: null } };
  const host = h.host.includes(':') ? `[${h.host}]` : h.host;
  return {
    text: `health endpoints: http://${host}:${h.port}/healthz, /readyz, /metrics`,
    fields: { health: h },
  };
}

export function configReport(
  config: Config,
  plan: ServicePlan,
  environment: Pick<Environment, 'file' | 'fromFile'>,
): ReportLine[] {
  const lines = [sourceLine(environment), platformLine(config), ...serviceLines(config, plan)];
  if (config.sandbox === 'on' && (config.discord || config.slack)) {
    lines.push({
      text: 'SANDBOX=on with a chat platform: its users get simulated data',
      fields: { sandbox: 'on' },
      warn: true,
    });
  }
  lines.push({ text: `store: ${describeStore(config)}`, fields: { store: describeStore(config) } });
  lines.push(healthLine(config));
  return lines;
}
