// The Config herald runs on. One zod schema for the whole environment (config/env.ts), one parser
// per section (config/sections.ts); loadConfig reports every problem at once, naming the variable
// to fix. A service whose credentials are absent is disabled (or simulated), not an error.
import { ConfigError, type ConfigProblem } from '../errors.ts';
import type { ServiceKey } from '../domain/services.ts';
import type { CommandAccess, CommandLimits } from '../domain/command-access.ts';
import { EnvSchema, RATE_LIMIT_VARIABLES, type Env } from './env.ts';
import { DEFAULT_JOB_COUNTRY } from '../domain/job-countries.ts';
import { DEFAULT_SPEECH_MODEL_ID } from '../domain/speech.ts';
import {
  type AnalyticsSummaryConfig,
  type DiscordConfig,
  type HealthConfig,
  type LogConfig,
  type ServiceConfigs,
  type SlackConfig,
  accessSection,
  analyticsSummarySection,
  discordSection,
  healthSection,
  logSection,
  servicesSection,
  slackSection,
} from './sections.ts';
import { loadScheduleConfig, scheduleSecrets, type ScheduleConfig } from './schedule.ts';
import { readSecretFiles } from './secret-files.ts';

export type {
  AnalyticsSummaryConfig,
  DiscordConfig,
  HealthConfig,
  LogConfig,
  ServiceConfigs,
  SlackConfig,
  WebhookParts,
} from './sections.ts';

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
  /**
   * Whether a rediss:// server's certificate is checked (REDIS_TLS_VERIFY, on by default); off
   * only for a provider whose certificate is self-signed (Heroku's Key-Value Store).
   */
  redisTlsVerify: boolean;
  /** The public server: /healthz, /readyz, the platforms' HTTP endpoints, /metrics where asked for. */
  health: HealthConfig | undefined;
  /** DYNO is set: a Heroku dyno, whose disk is lost at every restart. */
  ephemeralDisk: boolean;
  log: LogConfig;
  commandTimeoutMs: number;
  audioDir: string;
  access: CommandAccess;
  limits: CommandLimits;
  webhookUsername: string;
  /** JOBS_COUNTRY: /jobs' country when none is given, real or simulated (the sandbox's too). */
  jobsCountry: string;
  /** SPEECH_MODEL_ID: /say's model, real or simulated. */
  speechModelId: string;
  /** A provider plan's calls per minute where `<SERVICE>_RATE_LIMIT_PER_MINUTE` sets one. */
  rateLimitsPerMinute: Readonly<Partial<Record<ServiceKey, number>>>;
  analyticsSummary: AnalyticsSummaryConfig;
  jobCatchupMinutes: number;
  /**
   * Discord's budgets across replicas (src/domain/rate-budget.ts): requests a second per scope
   * (DISCORD_GLOBAL_RATE_LIMIT), and invalid requests in 10 minutes past which scheduled posting
   * stops (DISCORD_INVALID_REQUEST_LIMIT).
   */
  discordBudget: { perSecond: number; invalidLimit: number };
  /** SCHEDULE_CONCURRENCY: slots one process runs at once. */
  scheduleConcurrency: number;
  /** SCHEDULE_ALLOW_SIMULATED: scheduled posts of simulated data to a real destination, marked, instead of refused. */
  scheduleAllowSimulated: boolean;
  /** STOP_TIMEOUT_MS: how long a stop waits for the slots and posts in flight. */
  stopTimeoutMs: number;
  /** Scheduled reports: limits, access, destinations (src/config/schedule.ts). */
  schedule: ScheduleConfig;
  /** The values read from `<NAME>_FILE` files (src/config/secret-files.ts), all credentials. */
  fileSecrets: string[];
}

/** Where the store is with neither STORE_URL nor REDIS_URL. */
export const DEFAULT_STORE_PATH = './data/herald.sqlite';

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

/**
 * Parses the whole environment and returns every problem in one ConfigError: a variable the schema
 * refuses is left out of the further checks (so one mistake is reported once), and the section
 * parsers still run on the rest.
 */
export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  const files = readSecretFiles(environment);
  const env = files.env;
  const problems: ConfigProblem[] = [...files.problems];
  let parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const refused = new Set<string>();
    for (const issue of parsed.error.issues) {
      const variable = String(issue.path[0] ?? '(environment)');
      refused.add(variable);
      problems.push({ variable, message: issue.message });
    }
    parsed = EnvSchema.safeParse({ ...env, ...Object.fromEntries([...refused].map((v) => [v, undefined])) });
    if (!parsed.success) throw new ConfigError({ problems });
  }
  const e: Env = parsed.data;
  const sectionProblems: ConfigProblem[] = [];
  const services = servicesSection(e, sectionProblems);
  const discord = discordSection(e, sectionProblems);
  const slack = slackSection(e, sectionProblems);
  const health = healthSection(e, { slack, discord }, sectionProblems);
  const analyticsSummary = analyticsSummarySection(e, sectionProblems);
  const schedule = loadScheduleConfig(env, services.webhook, sectionProblems);
  const reported = new Set(problems.map((p) => p.variable));
  problems.push(...sectionProblems.filter((p) => !reported.has(p.variable)));
  if (problems.length > 0) throw new ConfigError({ problems });

  return {
    sandbox: e.SANDBOX,
    sandboxLatencyMs: e.SANDBOX_LATENCY_MS ?? 0,
    sandboxFaultRate: e.SANDBOX_FAULT_RATE ?? 0,
    services,
    serviceVariables: SERVICE_VARIABLES,
    discord,
    slack,
    storeUrl: e.STORE_URL ?? e.REDIS_URL ?? DEFAULT_STORE_PATH,
    redisUrl: e.REDIS_URL ?? (e.STORE_URL?.startsWith('redis') ? e.STORE_URL : undefined),
    redisTlsVerify: e.REDIS_TLS_VERIFY,
    health,
    log: logSection(e, discord !== undefined || slack !== undefined),
    commandTimeoutMs: e.COMMAND_TIMEOUT_MS,
    audioDir: e.AUDIO_DIR ?? './out/audio',
    access: accessSection(e),
    limits: { perUserPerMinute: e.RATE_LIMIT_PER_MINUTE, sayDailyChars: e.SAY_DAILY_CHARS },
    webhookUsername: e.WEBHOOK_USERNAME ?? 'herald',
    jobsCountry: e.JOBS_COUNTRY ?? DEFAULT_JOB_COUNTRY,
    speechModelId: e.SPEECH_MODEL_ID ?? DEFAULT_SPEECH_MODEL_ID,
    rateLimitsPerMinute: Object.fromEntries(
      Object.entries(RATE_LIMIT_VARIABLES).flatMap(([key, variable]) =>
        e[variable] === undefined ? [] : [[key, e[variable]]],
      ),
    ),
    analyticsSummary,
    jobCatchupMinutes: e.JOB_CATCHUP_MINUTES,
    ephemeralDisk: e.DYNO !== undefined,
    scheduleConcurrency: e.SCHEDULE_CONCURRENCY,
    discordBudget: { perSecond: e.DISCORD_GLOBAL_RATE_LIMIT, invalidLimit: e.DISCORD_INVALID_REQUEST_LIMIT },
    scheduleAllowSimulated: e.SCHEDULE_ALLOW_SIMULATED,
    stopTimeoutMs: e.STOP_TIMEOUT_MS,
    schedule,
    fileSecrets: files.secrets,
  };
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
    ...config.fileSecrets,
  ].filter((v): v is string => v !== undefined);
}
