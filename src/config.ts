// One zod schema for the whole environment. loadConfig reports every problem at once, naming the
// variable to fix. A service whose credentials are absent is disabled (or simulated), not an error.
import { ConfigError, type ConfigProblem } from './errors.ts';
import type { EmailConfig } from './services/email/client.ts';
import type { AnalyticsConfig } from './services/analytics/client.ts';
import type { WeatherConfig } from './services/weather/client.ts';
import type { GeocodingConfig } from './services/geocoding/client.ts';
import type { SpeechConfig } from './services/speech/client.ts';
import type { HostscanConfig } from './services/hostscan/client.ts';
import type { WebhookConfig } from './services/webhook/client.ts';
import type { JobSearchConfig } from './services/job-search/client.ts';
import type { ServiceKey } from './core/services.ts';
import { DEFAULT_BASE_URLS, EnvSchema, isAllowedBaseUrl, type Env } from './config-env.ts';
import { loadScheduleConfig, scheduleSecrets, type ScheduleConfig } from './config-schedule.ts';

export { DEFAULT_BASE_URLS, isAllowedBaseUrl } from './config-env.ts';

export interface DiscordConfig {
  token: string;
  applicationId: string;
  guildId: string | undefined;
  apiUrl: string | undefined;
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
}

export interface Config {
  sandbox: 'auto' | 'on' | 'off';
  sandboxLatencyMs: number;
  sandboxFaultRate: number;
  /** Services whose credentials are set; the others are disabled or simulated. */
  services: ServiceConfigs;
  /** Which variable enables each service, for "not configured" answers. */
  serviceVariables: Readonly<Record<ServiceKey, string>>;
  discord: DiscordConfig | undefined;
  slack: SlackConfig | undefined;
  storeUrl: string;
  redisUrl: string | undefined;
  healthPort: number | undefined;
  /** PORT: Slack's HTTP mode listens on it; otherwise the health endpoints do. */
  port: number | undefined;
  log: { level: string; format: 'json' | 'pretty' };
  commandTimeoutMs: number;
  audioDir: string;
  access: {
    emailUsers: string[];
    emailRoles: string[];
    emailDomains: string[];
    hostUsers: string[];
    hostRoles: string[];
  };
  limits: { perUserPerMinute: number; sayDailyChars: number };
  webhookUsername: string;
  analyticsSummary: AnalyticsSummaryConfig;
  jobCatchupMinutes: number;
  /** Scheduled reports: limits, access, destinations (src/config-schedule.ts). */
  schedule: ScheduleConfig;
}

export const SERVICE_VARIABLES: Readonly<Record<ServiceKey, string>> = {
  email: 'EMAIL_ACCESS_TOKEN and EMAIL_FROM',
  analytics: 'ANALYTICS_ACCESS_TOKEN and ANALYTICS_PROPERTY_ID',
  weather: 'WEATHER_API_KEY',
  geocoding: 'GEOCODING_API_KEY',
  speech: 'SPEECH_API_KEY',
  hostscan: 'HOSTSCAN_API_KEY',
  webhook: 'WEBHOOK_URL (or WEBHOOK_ID and WEBHOOK_TOKEN)',
  jobSearch: 'JOBS_APP_ID and JOBS_API_KEY',
};

/** Splits a whole webhook address into its base, id and token. */
export function parseWebhookUrl(value: string): { baseUrl: string; id: string; token: string } | undefined {
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

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: ConfigProblem[] = [];
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push({ variable: String(issue.path[0] ?? '(environment)'), message: issue.message });
    }
    throw new ConfigError({ problems });
  }
  const e: Env = parsed.data;
  const services: ServiceConfigs = {};
  const pair = (a: keyof Env, b: keyof Env, what: string): boolean => {
    const hasA = e[a] !== undefined;
    const hasB = e[b] !== undefined;
    if (hasA !== hasB)
      problems.push({
        variable: String(hasA ? b : a),
        message: `must be set together with ${String(hasA ? a : b)} (${what})`,
      });
    return hasA && hasB;
  };

  if (pair('EMAIL_ACCESS_TOKEN', 'EMAIL_FROM', 'email')) {
    services.email = {
      baseUrl: e.EMAIL_BASE_URL ?? DEFAULT_BASE_URLS.email,
      accessToken: e.EMAIL_ACCESS_TOKEN!,
      from: e.EMAIL_FROM!,
    };
  }
  if (pair('ANALYTICS_ACCESS_TOKEN', 'ANALYTICS_PROPERTY_ID', 'analytics')) {
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
      modelId: e.SPEECH_MODEL_ID ?? 'eleven_multilingual_v2',
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
  if (e.WEBHOOK_URL !== undefined) {
    const parts = parseWebhookUrl(e.WEBHOOK_URL);
    if (!parts || !isAllowedBaseUrl(parts.baseUrl)) {
      problems.push({
        variable: 'WEBHOOK_URL',
        message: 'must be a whole webhook address: https://host/api/webhooks/ID/TOKEN',
      });
    } else if (
      e.WEBHOOK_ID !== undefined ||
      e.WEBHOOK_TOKEN !== undefined ||
      e.WEBHOOK_BASE_URL !== undefined
    ) {
      problems.push({
        variable: 'WEBHOOK_URL',
        message: 'set either WEBHOOK_URL or WEBHOOK_BASE_URL/WEBHOOK_ID/WEBHOOK_TOKEN, not both',
      });
    } else {
      services.webhook = parts;
    }
  } else if (pair('WEBHOOK_ID', 'WEBHOOK_TOKEN', 'webhook')) {
    services.webhook = {
      baseUrl: e.WEBHOOK_BASE_URL ?? DEFAULT_BASE_URLS.webhook,
      id: e.WEBHOOK_ID!,
      token: e.WEBHOOK_TOKEN!,
    };
  }
  if (pair('JOBS_APP_ID', 'JOBS_API_KEY', 'job search')) {
    services.jobSearch = {
      baseUrl: e.JOBS_BASE_URL ?? DEFAULT_BASE_URLS.jobSearch,
      appId: e.JOBS_APP_ID!,
      apiKey: e.JOBS_API_KEY!,
      country: e.JOBS_COUNTRY ?? 'gb',
    };
  }

  let discord: DiscordConfig | undefined;
  if (e.DISCORD_TOKEN !== undefined) {
    if (e.DISCORD_APPLICATION_ID === undefined) {
      problems.push({ variable: 'DISCORD_APPLICATION_ID', message: 'must be set when DISCORD_TOKEN is set' });
    } else {
      discord = {
        token: e.DISCORD_TOKEN,
        applicationId: e.DISCORD_APPLICATION_ID,
        guildId: e.DISCORD_GUILD_ID,
        apiUrl: e.DISCORD_API_URL,
      };
    }
  } else if (e.DISCORD_APPLICATION_ID !== undefined || e.DISCORD_GUILD_ID !== undefined) {
    problems.push({
      variable: 'DISCORD_TOKEN',
      message: 'must be set when DISCORD_APPLICATION_ID or DISCORD_GUILD_ID is set',
    });
  }

  let slack: SlackConfig | undefined;
  if (e.SLACK_BOT_TOKEN !== undefined) {
    if (e.SLACK_APP_TOKEN === undefined && e.SLACK_SIGNING_SECRET === undefined) {
      problems.push({
        variable: 'SLACK_APP_TOKEN',
        message: 'set SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode) with SLACK_BOT_TOKEN',
      });
    } else if (e.SLACK_APP_TOKEN !== undefined && !e.SLACK_APP_TOKEN.startsWith('xapp-')) {
      problems.push({
        variable: 'SLACK_APP_TOKEN',
        message: 'must be an app-level token starting with xapp-',
      });
    } else {
      slack = {
        botToken: e.SLACK_BOT_TOKEN,
        appToken: e.SLACK_APP_TOKEN,
        signingSecret: e.SLACK_SIGNING_SECRET,
        apiUrl: e.SLACK_API_URL,
        port: e.PORT ?? 3000,
      };
    }
  } else if (e.SLACK_APP_TOKEN !== undefined || e.SLACK_SIGNING_SECRET !== undefined) {
    problems.push({
      variable: 'SLACK_BOT_TOKEN',
      message: 'must be set when SLACK_APP_TOKEN or SLACK_SIGNING_SECRET is set',
    });
  }
  if (
    slack &&
    e.SLACK_APP_TOKEN === undefined &&
    e.HEALTH_PORT !== undefined &&
    e.HEALTH_PORT === slack.port
  ) {
    problems.push({
      variable: 'HEALTH_PORT',
      message: 'must differ from PORT, which Slack HTTP mode listens on',
    });
  }

  const timezone = e.ANALYTICS_SUMMARY_TZ ?? 'UTC';
  if (!isValidTimeZone(timezone)) {
    problems.push({
      variable: 'ANALYTICS_SUMMARY_TZ',
      message: `unknown time zone "${timezone}" (use an IANA name such as Europe/Berlin)`,
    });
  }
  for (const address of e.ANALYTICS_SUMMARY_EMAIL_TO) {
    if (!/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(address)) {
      problems.push({
        variable: 'ANALYTICS_SUMMARY_EMAIL_TO',
        message: `"${address}" is not an email address`,
      });
    }
  }

  const schedule = loadScheduleConfig(env, services.webhook, problems);

  if (problems.length > 0) throw new ConfigError({ problems });

  return {
    sandbox: e.SANDBOX,
    sandboxLatencyMs: e.SANDBOX_LATENCY_MS ?? 0,
    sandboxFaultRate: e.SANDBOX_FAULT_RATE ?? 0,
    services,
    serviceVariables: SERVICE_VARIABLES,
    discord,
    slack,
    storeUrl: e.STORE_URL ?? e.REDIS_URL ?? './data/herald.sqlite',
    redisUrl: e.REDIS_URL ?? (e.STORE_URL?.startsWith('redis') ? e.STORE_URL : undefined),
    healthPort: e.HEALTH_PORT,
    port: e.PORT,
    // An interactive console keeps the terminal for the conversation: only warnings and errors.
    log: {
      level:
        e.LOG_LEVEL ?? (!discord && !slack && process.stdin.isTTY && process.stdout.isTTY ? 'warn' : 'info'),
      format: e.LOG_FORMAT ?? (process.stderr.isTTY ? 'pretty' : 'json'),
    },
    commandTimeoutMs: e.COMMAND_TIMEOUT_MS,
    audioDir: e.AUDIO_DIR ?? './out/audio',
    access: {
      emailUsers: e.EMAIL_ALLOWED_USERS,
      emailRoles: e.EMAIL_ALLOWED_ROLES,
      emailDomains: e.EMAIL_ALLOWED_DOMAINS.map((d) => d.toLowerCase()),
      hostUsers: e.HOST_ALLOWED_USERS,
      hostRoles: e.HOST_ALLOWED_ROLES,
    },
    limits: { perUserPerMinute: e.RATE_LIMIT_PER_MINUTE, sayDailyChars: e.SAY_DAILY_CHARS },
    webhookUsername: e.WEBHOOK_USERNAME ?? 'herald',
    analyticsSummary: {
      cron: e.ANALYTICS_SUMMARY_CRON ?? '0 8 * * *',
      timezone,
      range: e.ANALYTICS_SUMMARY_RANGE ?? 'yesterday',
      metrics:
        e.ANALYTICS_SUMMARY_METRICS.length > 0
          ? e.ANALYTICS_SUMMARY_METRICS
          : ['sessions', 'totalUsers', 'newUsers', 'eventCount', 'keyEvents'],
      dimension: e.ANALYTICS_SUMMARY_DIMENSION ?? 'country',
      emailTo: e.ANALYTICS_SUMMARY_EMAIL_TO,
    },
    jobCatchupMinutes: e.JOB_CATCHUP_MINUTES,
    schedule,
  };
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Every credential value in the config, for redaction. */
export function secretsOf(config: Config): string[] {
  const s = config.services;
  return [
    s.email?.accessToken,
    s.analytics?.accessToken,
    s.weather?.apiKey,
    s.geocoding?.apiKey,
    s.speech?.apiKey,
    s.hostscan?.apiKey,
    s.webhook?.token,
    s.jobSearch?.apiKey,
    s.jobSearch?.appId,
    config.discord?.token,
    config.slack?.botToken,
    config.slack?.appToken,
    config.slack?.signingSecret,
    ...scheduleSecrets(config.schedule),
  ].filter((v): v is string => v !== undefined);
}
