// The environment's schema: every variable herald reads, its type and its rule. config.ts turns
// the parsed values into a Config and adds the rules that span several variables.
import { isIP } from 'node:net';
import { z } from 'zod';
import { DISCORD_API_URL } from '../domain/discord.ts';
import type { ServiceKey } from '../domain/services.ts';
import { isJobCountry, JOB_COUNTRIES } from '../domain/job-countries.ts';
import { isLoopbackHost } from '../domain/loopback.ts';

/** The providers' public addresses (docs/SERVICES.md); used when a *_BASE_URL is not set. */
export const DEFAULT_BASE_URLS: Readonly<Record<ServiceKey, string>> = {
  email: 'https://api.resend.com',
  analytics: 'https://analyticsdata.googleapis.com/v1beta',
  weather: 'https://api.openweathermap.org/data/2.5',
  geocoding: 'https://api.mapbox.com',
  speech: 'https://api.elevenlabs.io/v1',
  hostscan: 'https://api.shodan.io',
  webhook: `${DISCORD_API_URL}/webhooks`,
  jobSearch: 'https://api.adzuna.com/v1/api',
};

/** https anywhere; plain http only to loopback, so credentials never travel in clear text. */
export function isAllowedBaseUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** A variable's text, trimmed; empty or unset is undefined. */
export const optionalText = z
  .string()
  .transform((s) => s.trim())
  .optional()
  .transform((s) => (s === '' ? undefined : s));

const baseUrl = optionalText.refine((v) => v === undefined || isAllowedBaseUrl(v), {
  message:
    'must be an https:// URL (http:// only for loopback: 127.x.x.x, [::1] or localhost), without credentials or query',
});

/** A comma-separated list; unset is empty. */
export const list = optionalText.transform((s) =>
  s === undefined
    ? []
    : s
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== ''),
);

const port = optionalText.pipe(z.coerce.number<string>().int().min(0).max(65535).optional());

/** A whole number of at least 1; unset is `fallback`. */
export const positiveInt = (fallback: number) =>
  optionalText.pipe(z.coerce.number<string>().int().positive().optional()).transform((v) => v ?? fallback);

/**
 * A provider plan's calls per minute, in place of its free tier's rate: the variable of each
 * service, e.g. WEATHER_RATE_LIMIT_PER_MINUTE=3000.
 */
export const RATE_LIMIT_VARIABLES = {
  email: 'EMAIL_RATE_LIMIT_PER_MINUTE',
  analytics: 'ANALYTICS_RATE_LIMIT_PER_MINUTE',
  weather: 'WEATHER_RATE_LIMIT_PER_MINUTE',
  geocoding: 'GEOCODING_RATE_LIMIT_PER_MINUTE',
  speech: 'SPEECH_RATE_LIMIT_PER_MINUTE',
  hostscan: 'HOSTSCAN_RATE_LIMIT_PER_MINUTE',
  webhook: 'WEBHOOK_RATE_LIMIT_PER_MINUTE',
  jobSearch: 'JOBS_RATE_LIMIT_PER_MINUTE',
} as const satisfies Record<ServiceKey, string>;
const ratePerMinute = optionalText.pipe(z.coerce.number<string>().int().positive().optional());

export const EnvSchema = z.object({
  EMAIL_BASE_URL: baseUrl,
  EMAIL_ACCESS_TOKEN: optionalText,
  EMAIL_FROM: optionalText,
  ANALYTICS_BASE_URL: baseUrl,
  ANALYTICS_ACCESS_TOKEN: optionalText,
  ANALYTICS_PROPERTY_ID: optionalText.refine((v) => v === undefined || /^\d+$/.test(v), {
    message: 'must be the numeric GA4 property id',
  }),
  WEATHER_BASE_URL: baseUrl,
  WEATHER_API_KEY: optionalText,
  GEOCODING_BASE_URL: baseUrl,
  GEOCODING_API_KEY: optionalText,
  GEOCODING_DATASET: optionalText.refine((v) => v === undefined || /^[A-Za-z0-9._-]+$/.test(v), {
    message: 'must be a dataset name such as mapbox.places',
  }),
  SPEECH_BASE_URL: baseUrl,
  SPEECH_API_KEY: optionalText,
  SPEECH_MODEL_ID: optionalText,
  SPEECH_VOICE_ID: optionalText,
  HOSTSCAN_BASE_URL: baseUrl,
  HOSTSCAN_API_KEY: optionalText,
  HOSTSCAN_PROVIDER: optionalText.refine((v) => v === undefined || /^[A-Za-z0-9._-]+$/.test(v), {
    message: 'must be a path segment such as shodan',
  }),
  WEBHOOK_URL: optionalText,
  WEBHOOK_BASE_URL: baseUrl,
  WEBHOOK_ID: optionalText,
  WEBHOOK_TOKEN: optionalText,
  WEBHOOK_USERNAME: optionalText,
  JOBS_BASE_URL: baseUrl,
  JOBS_APP_ID: optionalText,
  JOBS_API_KEY: optionalText,
  JOBS_COUNTRY: optionalText.refine((v) => v === undefined || isJobCountry(v), {
    message: `must be one of the job search's countries: ${JOB_COUNTRIES.join(', ')}`,
  }),

  DISCORD_TOKEN: optionalText,
  DISCORD_APPLICATION_ID: optionalText,
  DISCORD_GUILD_ID: optionalText,
  DISCORD_API_URL: baseUrl,
  DISCORD_MODE: optionalText.pipe(z.enum(['gateway', 'http']).optional()),
  DISCORD_PUBLIC_KEY: optionalText.refine((v) => v === undefined || /^[0-9a-fA-F]{64}$/.test(v), {
    message: 'must be the 64 hexadecimal digits of the application’s public key (Developer Portal)',
  }),
  DISCORD_INTERACTIONS_PATH: optionalText.refine((v) => v === undefined || /^\/[\w\-./]*$/.test(v), {
    message: 'must be a URL path such as /interactions',
  }),
  SLACK_BOT_TOKEN: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_API_URL: baseUrl,
  PORT: port,

  SANDBOX: optionalText.pipe(z.enum(['auto', 'on', 'off']).optional()).transform((v) => v ?? 'auto'),
  SANDBOX_LATENCY_MS: optionalText.pipe(z.coerce.number<string>().int().min(0).max(60_000).optional()),
  SANDBOX_FAULT_RATE: optionalText.pipe(z.coerce.number<string>().min(0).max(1).optional()),
  STORE_URL: optionalText,
  REDIS_URL: optionalText.refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
    message: 'must start with redis:// or rediss://',
  }),
  HEALTH_PORT: port,
  HEALTH_HOST: optionalText.refine((v) => v === undefined || isIP(v.replace(/^\[|\]$/g, '')) !== 0, {
    message: 'must be an IP address to listen on, such as 127.0.0.1 or 0.0.0.0',
  }),
  METRICS_PORT: port,
  METRICS_ON_INTERACTIONS_PORT: optionalText
    .pipe(z.enum(['true', 'false']).optional())
    .transform((v) => v === 'true'),
  HTTP_MAX_CONNECTIONS: positiveInt(4_096),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: optionalText.pipe(z.coerce.number<string>().int().positive().optional()),
  HTTP_MAX_UNVERIFIED_CONNECTIONS: positiveInt(1_000),
  // Set by Heroku in every dyno, whose disk is ephemeral.
  DYNO: optionalText,
  LOG_LEVEL: optionalText.pipe(
    z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).optional(),
  ),
  LOG_FORMAT: optionalText.pipe(z.enum(['json', 'pretty']).optional()),
  COMMAND_TIMEOUT_MS: positiveInt(25_000),
  AUDIO_DIR: optionalText,

  EMAIL_ALLOWED_USERS: list,
  EMAIL_ALLOWED_ROLES: list,
  EMAIL_ALLOWED_DOMAINS: list,
  HOST_ALLOWED_USERS: list,
  HOST_ALLOWED_ROLES: list,
  RATE_LIMIT_PER_MINUTE: positiveInt(10),
  SAY_DAILY_CHARS: positiveInt(2_000),

  ANALYTICS_SUMMARY_CRON: optionalText,
  ANALYTICS_SUMMARY_TZ: optionalText,
  ANALYTICS_SUMMARY_RANGE: optionalText.refine(
    (v) => v === undefined || /^(yesterday|today|\d{1,3}d)$/.test(v),
    {
      message: 'must be yesterday, today or a number of days such as 7d',
    },
  ),
  ANALYTICS_SUMMARY_METRICS: list,
  ANALYTICS_SUMMARY_DIMENSION: optionalText,
  ANALYTICS_SUMMARY_EMAIL_TO: list,
  ANALYTICS_SUMMARY_SPEAK: optionalText
    .pipe(z.enum(['true', 'false']).optional())
    .transform((v) => v === 'true'),
  EMAIL_RATE_LIMIT_PER_MINUTE: ratePerMinute,
  ANALYTICS_RATE_LIMIT_PER_MINUTE: ratePerMinute,
  WEATHER_RATE_LIMIT_PER_MINUTE: ratePerMinute,
  GEOCODING_RATE_LIMIT_PER_MINUTE: ratePerMinute,
  SPEECH_RATE_LIMIT_PER_MINUTE: ratePerMinute,
  HOSTSCAN_RATE_LIMIT_PER_MINUTE: ratePerMinute,
  WEBHOOK_RATE_LIMIT_PER_MINUTE: ratePerMinute,
  JOBS_RATE_LIMIT_PER_MINUTE: ratePerMinute,
  JOB_CATCHUP_MINUTES: optionalText
    .pipe(z.coerce.number<string>().int().min(0).optional())
    .transform((v) => v ?? 360),
  SCHEDULE_CONCURRENCY: positiveInt(64),
  DISCORD_GLOBAL_RATE_LIMIT: positiveInt(50),
  DISCORD_INVALID_REQUEST_LIMIT: positiveInt(1_000),
  REDIS_TLS_VERIFY: optionalText.pipe(z.enum(['true', 'false']).optional()).transform((v) => v !== 'false'),
  SCHEDULE_ALLOW_SIMULATED: optionalText
    .pipe(z.enum(['true', 'false']).optional())
    .transform((v) => v === 'true'),
  STOP_TIMEOUT_MS: positiveInt(30_000),
});

export type Env = z.output<typeof EnvSchema>;
