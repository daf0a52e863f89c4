// One parser per configuration section. Each reads the parsed environment, adds the problems of
// its own variables to `problems`, and returns its part of the Config (undefined when the section
// is off or wrong). loadConfig (config.ts) calls them in turn, so every problem is found in one run.
import { DEFAULT_BASE_URLS, isAllowedBaseUrl, type Env } from './env.ts';
import type { ConfigProblem } from '../errors.ts';
import { DEFAULT_JOB_COUNTRY } from '../domain/job-countries.ts';
import { DEFAULT_SPEECH_MODEL_ID } from '../domain/speech.ts';
import { isTimeZone, parseWhen } from '../schedule/when.ts';
import type { CommandAccess } from '../domain/command-access.ts';
import type { EmailConfig } from '../services/email/client.ts';
import type { AnalyticsConfig } from '../services/analytics/client.ts';
import type { WeatherConfig } from '../services/weather/client.ts';
import type { GeocodingConfig } from '../services/geocoding/client.ts';
import type { SpeechConfig } from '../services/speech/client.ts';
import type { HostscanConfig } from '../services/hostscan/client.ts';
import type { WebhookConfig } from '../services/webhook/client.ts';
import type { JobSearchConfig } from '../services/job-search/client.ts';

export interface DiscordConfig {
  token: string;
  applicationId: string;
  guildId: string | undefined;
  apiUrl: string | undefined;
  /** `http`: Discord POSTs interactions to interactionsPath; a discord.js gateway session otherwise. */
  mode?: 'gateway' | 'http';
  /** The application's Ed25519 public key (hex), which signs the HTTP interactions. */
  publicKey?: string;
  /** HTTP mode's path on PORT. */
  interactionsPath?: string;
}

export interface SlackConfig {
  botToken: string;
  /** Socket Mode when set; else HTTP mode with the signing secret. */
  appToken: string | undefined;
  signingSecret: string | undefined;
  apiUrl: string | undefined;
  port: number;
}

export interface ServiceConfigs {
  email?: EmailConfig;
  analytics?: AnalyticsConfig;
  weather?: WeatherConfig;
  geocoding?: GeocodingConfig;
  speech?: SpeechConfig;
  hostscan?: HostscanConfig;
  webhook?: WebhookConfig;
  jobSearch?: JobSearchConfig;
}

export interface AnalyticsSummaryConfig {
  cron: string;
  timezone: string;
  /** yesterday, today or Nd. */
  range: string;
  metrics: string[];
  dimension: string;
  emailTo: string[];
  /** ANALYTICS_SUMMARY_SPEAK: the summary read aloud, posted as an mp3 in the same message. */
  speak: boolean;
}

/** A webhook address taken apart: its base, id and token. */
export interface WebhookParts {
  baseUrl: string;
  id: string;
  token: string;
}

/** herald's public server: /healthz, /readyz, the platforms' endpoints, and /metrics where asked. */
export interface HealthConfig {
  port: number;
  host: string;
  /** METRICS_PORT: /metrics on its own port, off `port`. */
  metricsPort: number | undefined;
  /**
   * /metrics on `port` itself: where no platform endpoint is served there, or with
   * METRICS_ON_INTERACTIONS_PORT=true.
   */
  isMetricsOnPort: boolean;
  /** Which variable gave `port`: PORT is usually a platform's. */
  portVariable: 'HEALTH_PORT' | 'PORT';
  /** HEALTH_HOST unset: loopback, or every interface where Slack's HTTP mode is served. */
  defaultHost: boolean;
  /** HTTP_MAX_CONNECTIONS, HTTP_MAX_CONNECTIONS_PER_ADDRESS (unset: no cap per address). */
  maxConnections: number;
  maxConnectionsPerAddress: number | undefined;
  /** HTTP_MAX_UNVERIFIED_CONNECTIONS: past it the one open longest is dropped (src/health.ts). */
  maxUnverifiedConnections: number;
}

export interface LogConfig {
  level: string;
  format: 'json' | 'pretty';
}

type Problems = ConfigProblem[];

/** Both or neither: a lone half names the missing variable. */
function pair(e: Env, a: keyof Env, b: keyof Env, what: string, problems: Problems): boolean {
  const hasA = e[a] !== undefined;
  const hasB = e[b] !== undefined;
  if (hasA !== hasB)
    problems.push({
      variable: String(hasA ? b : a),
      message: `must be set together with ${String(hasA ? a : b)} (${what})`,
    });
  return hasA && hasB;
}

/** Splits a whole webhook address into its base, id and token. */
export function parseWebhookUrl(value: string): WebhookParts | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const match = /^(.*\/webhooks)\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
  if (!match || url.search || url.hash) return undefined;
  const [, prefix, id, token] = match as unknown as [string, string, string, string];
  return {
    baseUrl: `${url.protocol}//${url.host}${prefix}`,
    id: decodeURIComponent(id),
    token: decodeURIComponent(token),
  };
}

function webhookSection(e: Env, problems: Problems): ServiceConfigs['webhook'] {
  if (e.WEBHOOK_URL === undefined) {
    if (!pair(e, 'WEBHOOK_ID', 'WEBHOOK_TOKEN', 'webhook', problems)) return undefined;
    return {
      baseUrl: e.WEBHOOK_BASE_URL ?? DEFAULT_BASE_URLS.webhook,
      id: e.WEBHOOK_ID!,
      token: e.WEBHOOK_TOKEN!,
    };
  }
  const parts = parseWebhookUrl(e.WEBHOOK_URL);
  if (!parts || !isAllowedBaseUrl(parts.baseUrl)) {
    problems.push({
      variable: 'WEBHOOK_URL',
      message: 'must be a whole webhook address: https://host/api/webhooks/ID/TOKEN',
    });
    return undefined;
  }
  if (e.WEBHOOK_ID !== undefined || e.WEBHOOK_TOKEN !== undefined || e.WEBHOOK_BASE_URL !== undefined) {
    problems.push({
      variable: 'WEBHOOK_URL',
      message: 'set either WEBHOOK_URL or WEBHOOK_BASE_URL/WEBHOOK_ID/WEBHOOK_TOKEN, not both',
    });
    return undefined;
  }
  return parts;
}

/** The eight services: each enabled by its credentials, at the provider's address unless overridden. */
export function servicesSection(e: Env, problems: Problems): ServiceConfigs {
  const services: ServiceConfigs = {};
  if (pair(e, 'EMAIL_ACCESS_TOKEN', 'EMAIL_FROM', 'email', problems)) {
    services.email = {
      baseUrl: e.EMAIL_BASE_URL ?? DEFAULT_BASE_URLS.email,
      accessToken: e.EMAIL_ACCESS_TOKEN!,
      from: e.EMAIL_FROM!,
    };
  }
  if (pair(e, 'ANALYTICS_ACCESS_TOKEN', 'ANALYTICS_PROPERTY_ID', 'analytics', problems)) {
    services.analytics = {
      baseUrl: e.ANALYTICS_BASE_URL ?? DEFAULT_BASE_URLS.analytics,
      accessToken: e.ANALYTICS_ACCESS_TOKEN!,
      propertyId: e.ANALYTICS_PROPERTY_ID!,
    };
  }
  if (e.WEATHER_API_KEY)
    services.weather = {
      baseUrl: e.WEATHER_BASE_URL ?? DEFAULT_BASE_URLS.weather,
      apiKey: e.WEATHER_API_KEY,
    };
  if (e.GEOCODING_API_KEY) {
    services.geocoding = {
      baseUrl: e.GEOCODING_BASE_URL ?? DEFAULT_BASE_URLS.geocoding,
      apiKey: e.GEOCODING_API_KEY,
      dataset: e.GEOCODING_DATASET ?? 'mapbox.places',
    };
  }
  if (e.SPEECH_API_KEY) {
    services.speech = {
      baseUrl: e.SPEECH_BASE_URL ?? DEFAULT_BASE_URLS.speech,
      apiKey: e.SPEECH_API_KEY,
      modelId: e.SPEECH_MODEL_ID ?? DEFAULT_SPEECH_MODEL_ID,
      voiceId: e.SPEECH_VOICE_ID ?? '21m00Tcm4TlvDq8ikWAM',
    };
  }
  if (e.HOSTSCAN_API_KEY) {
    services.hostscan = {
      baseUrl: e.HOSTSCAN_BASE_URL ?? DEFAULT_BASE_URLS.hostscan,
      apiKey: e.HOSTSCAN_API_KEY,
      provider: e.HOSTSCAN_PROVIDER ?? 'shodan',
    };
  }
  const webhook = webhookSection(e, problems);
  if (webhook) services.webhook = webhook;
  if (pair(e, 'JOBS_APP_ID', 'JOBS_API_KEY', 'job search', problems)) {
    services.jobSearch = {
      baseUrl: e.JOBS_BASE_URL ?? DEFAULT_BASE_URLS.jobSearch,
      appId: e.JOBS_APP_ID!,
      apiKey: e.JOBS_API_KEY!,
      country: e.JOBS_COUNTRY ?? DEFAULT_JOB_COUNTRY,
    };
  }
  return services;
}

export function discordSection(e: Env, problems: Problems): DiscordConfig | undefined {
  if (e.DISCORD_TOKEN === undefined) {
    if (e.DISCORD_APPLICATION_ID !== undefined || e.DISCORD_GUILD_ID !== undefined) {
      problems.push({
        variable: 'DISCORD_TOKEN',
        message: 'must be set when DISCORD_APPLICATION_ID or DISCORD_GUILD_ID is set',
      });
    }
    return undefined;
  }
  if (e.DISCORD_APPLICATION_ID === undefined) {
    problems.push({ variable: 'DISCORD_APPLICATION_ID', message: 'must be set when DISCORD_TOKEN is set' });
    return undefined;
  }
  const mode = e.DISCORD_MODE ?? 'gateway';
  if (mode === 'http' && e.DISCORD_PUBLIC_KEY === undefined) {
    problems.push({ variable: 'DISCORD_PUBLIC_KEY', message: 'must be set when DISCORD_MODE is http' });
  }
  // The interactions endpoint is served by the one HTTP server (src/health.ts).
  if (mode === 'http' && e.PORT === undefined && e.HEALTH_PORT === undefined) {
    problems.push({ variable: 'PORT', message: 'must be set when DISCORD_MODE is http' });
  }
  const interactionsPath = e.DISCORD_INTERACTIONS_PATH ?? '/interactions';
  if (['/healthz', '/readyz', '/metrics'].includes(interactionsPath)) {
    problems.push({ variable: 'DISCORD_INTERACTIONS_PATH', message: `must not be ${interactionsPath}` });
  }
  return {
    token: e.DISCORD_TOKEN,
    applicationId: e.DISCORD_APPLICATION_ID,
    guildId: e.DISCORD_GUILD_ID,
    apiUrl: e.DISCORD_API_URL,
    mode,
    publicKey: e.DISCORD_PUBLIC_KEY,
    interactionsPath,
  };
}

export function slackSection(e: Env, problems: Problems): SlackConfig | undefined {
  if (e.SLACK_BOT_TOKEN === undefined) {
    if (e.SLACK_APP_TOKEN !== undefined || e.SLACK_SIGNING_SECRET !== undefined) {
      problems.push({
        variable: 'SLACK_BOT_TOKEN',
        message: 'must be set when SLACK_APP_TOKEN or SLACK_SIGNING_SECRET is set',
      });
    }
    return undefined;
  }
  if (e.SLACK_APP_TOKEN === undefined && e.SLACK_SIGNING_SECRET === undefined) {
    problems.push({
      variable: 'SLACK_APP_TOKEN',
      message: 'set SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode) with SLACK_BOT_TOKEN',
    });
    return undefined;
  }
  if (e.SLACK_APP_TOKEN !== undefined && !e.SLACK_APP_TOKEN.startsWith('xapp-')) {
    problems.push({ variable: 'SLACK_APP_TOKEN', message: 'must be an app-level token starting with xapp-' });
    return undefined;
  }
  return {
    botToken: e.SLACK_BOT_TOKEN,
    appToken: e.SLACK_APP_TOKEN,
    signingSecret: e.SLACK_SIGNING_SECRET,
    apiUrl: e.SLACK_API_URL,
    port: e.PORT ?? 3000,
  };
}

/** Where /metrics goes: its own port, the public server's port (when no platform is served there), or nowhere. */
function metricsPlace(
  e: Env,
  port: number | undefined,
  portVariable: string,
  hasEndpoint: boolean,
  problems: Problems,
): Pick<HealthConfig, 'metricsPort' | 'isMetricsOnPort'> {
  if (e.METRICS_PORT !== undefined && port === undefined) {
    problems.push({ variable: 'METRICS_PORT', message: 'needs the health endpoints: set HEALTH_PORT' });
  } else if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === port) {
    problems.push({ variable: 'METRICS_PORT', message: `must differ from ${portVariable}` });
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_ON_INTERACTIONS_PORT) {
    problems.push({ variable: 'METRICS_ON_INTERACTIONS_PORT', message: 'set either it or METRICS_PORT' });
  }
  return {
    metricsPort: e.METRICS_PORT,
    isMetricsOnPort: e.METRICS_PORT === undefined && (!hasEndpoint || e.METRICS_ON_INTERACTIONS_PORT),
  };
}

/**
 * The public server: HEALTH_PORT, else PORT; in Slack's HTTP mode PORT, where Slack's events are
 * served beside /healthz and /readyz. Loopback unless HEALTH_HOST widens it, but for Slack's HTTP
 * mode, which Slack must reach: every interface then.
 */
export function healthSection(
  e: Env,
  platforms: { slack: SlackConfig | undefined; discord: DiscordConfig | undefined },
  problems: Problems,
): HealthConfig | undefined {
  const { slack } = platforms;
  const slackHttp = slack !== undefined && slack.appToken === undefined;
  if (slackHttp && e.HEALTH_PORT !== undefined && e.HEALTH_PORT !== slack.port) {
    problems.push({
      variable: 'HEALTH_PORT',
      message: 'Slack HTTP mode serves /healthz and /readyz on PORT, beside its endpoint: unset HEALTH_PORT',
    });
  }
  const port = slackHttp ? slack.port : (e.HEALTH_PORT ?? e.PORT);
  const portVariable = e.HEALTH_PORT === undefined || slackHttp ? 'PORT' : 'HEALTH_PORT';
  const hasEndpoint = slackHttp || platforms.discord?.mode === 'http';
  const metrics = metricsPlace(e, port, portVariable, hasEndpoint, problems);
  if (port === undefined) return undefined;
  return {
    port,
    host: e.HEALTH_HOST?.replace(/^\[|\]$/g, '') ?? (slackHttp ? '0.0.0.0' : '127.0.0.1'),
    ...metrics,
    portVariable,
    defaultHost: e.HEALTH_HOST === undefined,
    maxConnections: e.HTTP_MAX_CONNECTIONS,
    maxConnectionsPerAddress: e.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    maxUnverifiedConnections: e.HTTP_MAX_UNVERIFIED_CONNECTIONS,
  };
}

const EMAIL_ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

export function analyticsSummarySection(e: Env, problems: Problems): AnalyticsSummaryConfig {
  const timezone = e.ANALYTICS_SUMMARY_TZ ?? 'UTC';
  if (!isTimeZone(timezone)) {
    problems.push({
      variable: 'ANALYTICS_SUMMARY_TZ',
      message: `unknown time zone "${timezone}" (use an IANA name such as Europe/Berlin)`,
    });
  }
  // The same reader as /schedule add: a cron expression or the chat's words ("every monday at 08:00").
  const when = e.ANALYTICS_SUMMARY_CRON ?? '0 8 * * *';
  let cron = when;
  try {
    cron = parseWhen(when, { minIntervalMinutes: 1 }).cron;
  } catch (err) {
    problems.push({
      variable: 'ANALYTICS_SUMMARY_CRON',
      message: `${err instanceof Error ? err.message.replace(/\.$/, '') : String(err)} (it takes what /schedule add takes: words such as "every monday at 08:00", or cron)`,
    });
  }
  for (const address of e.ANALYTICS_SUMMARY_EMAIL_TO) {
    if (!EMAIL_ADDRESS.test(address)) {
      problems.push({
        variable: 'ANALYTICS_SUMMARY_EMAIL_TO',
        message: `"${address}" is not an email address`,
      });
    }
  }
  return {
    cron,
    timezone,
    range: e.ANALYTICS_SUMMARY_RANGE ?? 'yesterday',
    metrics:
      e.ANALYTICS_SUMMARY_METRICS.length > 0
        ? e.ANALYTICS_SUMMARY_METRICS
        : ['sessions', 'totalUsers', 'newUsers', 'eventCount', 'keyEvents'],
    dimension: e.ANALYTICS_SUMMARY_DIMENSION ?? 'country',
    emailTo: e.ANALYTICS_SUMMARY_EMAIL_TO,
    speak: e.ANALYTICS_SUMMARY_SPEAK,
  };
}

/** An interactive console keeps the terminal for the conversation: only warnings and errors. */
export function logSection(e: Env, hasPlatform: boolean): LogConfig {
  const interactive = !hasPlatform && Boolean(process.stdin.isTTY && process.stdout.isTTY);
  return {
    level: e.LOG_LEVEL ?? (interactive ? 'warn' : 'info'),
    format: e.LOG_FORMAT ?? (process.stderr.isTTY ? 'pretty' : 'json'),
  };
}

export function accessSection(e: Env): CommandAccess {
  return {
    emailUsers: e.EMAIL_ALLOWED_USERS,
    emailRoles: e.EMAIL_ALLOWED_ROLES,
    emailDomains: e.EMAIL_ALLOWED_DOMAINS.map((d) => d.toLowerCase()),
    hostUsers: e.HOST_ALLOWED_USERS,
    hostRoles: e.HOST_ALLOWED_ROLES,
  };
}
