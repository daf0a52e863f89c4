// The configuration section of scheduled reports (/schedule): its limits, who may manage schedules,
// and the named webhook destinations. `WEBHOOK_URL` is the destination `default`; every
// `WEBHOOK_URL_<NAME>` adds `<name>`, a Discord webhook or a Slack incoming webhook, but never
// `default` or `me` (`to:me` is the creator's DMs). A destination is only ever shown by its name.
import { z } from 'zod';
import { isAllowedBaseUrl, list, optionalText, positiveInt } from './env.ts';
// A cycle with config.ts, which calls loadScheduleConfig: only functions cross it, at call time.
import { parseWebhookUrl } from './sections.ts';
import { canonicalTimeZone, isTimeZone } from '../schedule/when.ts';
import { ownEntry } from '../domain/lookup.ts';
import type { ConfigProblem } from '../errors.ts';
import type { WebhookConfig, WebhookDestination } from '../services/webhook/client.ts';

export interface ScheduleConfig {
  /** SCHEDULE_TZ: the zone where nobody set one with /settings (a schedule added without `tz`). */
  timezone: string;
  /** SCHEDULE_MIN_INTERVAL_MINUTES: nothing more frequent is accepted. */
  minIntervalMinutes: number;
  /** SCHEDULE_MAX: schedules in all, across every replica. */
  max: number;
  /** SCHEDULE_ALLOWED_USERS / _ROLES: who may add, remove, pause, resume and run; empty: the operator only. */
  allowedUsers: string[];
  allowedRoles: string[];
  /** SCHEDULE_ADMIN_USERS / _ROLES: who may also remove, pause, resume and run others' schedules. */
  adminUsers: string[];
  adminRoles: string[];
  /** Destination name (lower case) to its webhook; `default` is WEBHOOK_URL's (Discord). */
  destinations: Record<string, WebhookDestination>;
}

const SCHEDULE_DEFAULTS = Object.freeze({
  timezone: 'UTC',
  minIntervalMinutes: 15,
  // What one replica is measured to hold: 1,000 schedules due in the same minute, each posted once,
  // the last 7.1 s after the minute on a loaded 2-core machine (`npm run bench -- schedules`, target
  // 15 s; docs/SCHEDULING.md).
  max: 1_000,
});

const DESTINATION_VAR_RE = /^WEBHOOK_URL_([A-Za-z0-9_]+)$/;
const DESTINATION_NAME_RE = /^[a-z0-9][a-z0-9_]{0,31}$/;

/** Names `to:` reads as something else, so a webhook of that name could never be posted to. */
const RESERVED_NAMES: Readonly<Record<string, string>> = {
  default: 'the destination "default" is WEBHOOK_URL; pick another name',
  me: 'to:me is a direct message to whoever adds the schedule, so no webhook can be named "me"; pick another name',
};

const ScheduleEnv = z.object({
  SCHEDULE_TZ: optionalText,
  SCHEDULE_MIN_INTERVAL_MINUTES: positiveInt(SCHEDULE_DEFAULTS.minIntervalMinutes),
  SCHEDULE_MAX: positiveInt(SCHEDULE_DEFAULTS.max),
  SCHEDULE_ALLOWED_USERS: list,
  SCHEDULE_ALLOWED_ROLES: list,
  SCHEDULE_ADMIN_USERS: list,
  SCHEDULE_ADMIN_ROLES: list,
});

/**
 * A Slack incoming webhook is known by its path, `…/services/T…/B…/SECRET`, on whatever host serves
 * it (hooks.slack.com, a proxy or a loopback fake). Team and webhook ids are Slack's upper-case ids.
 */
const SLACK_HOOK_PATH_RE = /^(.*\/services\/T[A-Z0-9]+)\/(B[A-Z0-9]+)\/([A-Za-z0-9]+)\/?$/;

function parseSlackWebhookUrl(value: string): WebhookDestination | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const match = SLACK_HOOK_PATH_RE.exec(url.pathname);
  if (!match || url.search || url.hash) return undefined;
  const [, prefix, id, token] = match as unknown as [string, string, string, string];
  return { kind: 'slack', baseUrl: `${url.protocol}//${url.host}${prefix}`, id, token };
}

/**
 * A named destination's address, https (http only on loopback): a whole Discord webhook URL, or a
 * Slack incoming webhook's.
 */
export function parseDestinationUrl(value: string): WebhookDestination | undefined {
  const slack = parseSlackWebhookUrl(value);
  if (slack) return isAllowedBaseUrl(slack.baseUrl) ? slack : undefined;
  const parts = parseWebhookUrl(value);
  return parts && isAllowedBaseUrl(parts.baseUrl) ? { kind: 'discord', ...parts } : undefined;
}

/**
 * Reads the section from the environment; `defaultWebhook` is the webhook already configured by
 * WEBHOOK_URL (or WEBHOOK_ID and WEBHOOK_TOKEN). Problems are appended, naming the variable.
 */
export function loadScheduleConfig(
  env: Record<string, string | undefined>,
  defaultWebhook: WebhookConfig | undefined,
  problems: ConfigProblem[],
): ScheduleConfig {
  // Each variable on its own, so that one bad value neither hides nor resets the others.
  const read = <K extends keyof typeof ScheduleEnv.shape>(
    key: K,
  ): z.output<(typeof ScheduleEnv.shape)[K]> => {
    const field = ScheduleEnv.shape[key];
    const result = field.safeParse(env[key]);
    if (result.success) return result.data as z.output<(typeof ScheduleEnv.shape)[K]>;
    problems.push({ variable: key, message: 'must be a whole number of at least 1' });
    return field.parse(undefined) as z.output<(typeof ScheduleEnv.shape)[K]>;
  };
  const e = {
    SCHEDULE_TZ: read('SCHEDULE_TZ'),
    SCHEDULE_MIN_INTERVAL_MINUTES: read('SCHEDULE_MIN_INTERVAL_MINUTES'),
    SCHEDULE_MAX: read('SCHEDULE_MAX'),
    SCHEDULE_ALLOWED_USERS: read('SCHEDULE_ALLOWED_USERS'),
    SCHEDULE_ALLOWED_ROLES: read('SCHEDULE_ALLOWED_ROLES'),
    SCHEDULE_ADMIN_USERS: read('SCHEDULE_ADMIN_USERS'),
    SCHEDULE_ADMIN_ROLES: read('SCHEDULE_ADMIN_ROLES'),
  };
  const timezone = e.SCHEDULE_TZ ?? SCHEDULE_DEFAULTS.timezone;
  if (!isTimeZone(timezone)) {
    problems.push({
      variable: 'SCHEDULE_TZ',
      message: `unknown time zone "${timezone}" (use an IANA name such as Europe/Berlin)`,
    });
  }
  const destinations: Record<string, WebhookDestination> = {};
  if (defaultWebhook) destinations.default = { kind: 'discord', ...defaultWebhook };
  for (const [variable, raw] of Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const m = DESTINATION_VAR_RE.exec(variable);
    if (!m || raw === undefined || raw.trim() === '') continue;
    const name = m[1]!.toLowerCase();
    const reserved = ownEntry(RESERVED_NAMES, name);
    if (reserved !== undefined || !DESTINATION_NAME_RE.test(name)) {
      problems.push({
        variable,
        message: reserved ?? 'the name after WEBHOOK_URL_ must be letters, digits or _ (at most 32)',
      });
      continue;
    }
    const webhook = parseDestinationUrl(raw.trim());
    if (!webhook) {
      problems.push({
        variable,
        message:
          'must be a whole webhook address: https://host/api/webhooks/ID/TOKEN (Discord) or https://hooks.slack.com/services/T…/B…/SECRET (Slack)',
      });
      continue;
    }
    destinations[name] = webhook;
  }
  return {
    timezone: canonicalTimeZone(timezone) ?? timezone,
    minIntervalMinutes: e.SCHEDULE_MIN_INTERVAL_MINUTES,
    max: e.SCHEDULE_MAX,
    allowedUsers: e.SCHEDULE_ALLOWED_USERS,
    allowedRoles: e.SCHEDULE_ALLOWED_ROLES,
    adminUsers: e.SCHEDULE_ADMIN_USERS,
    adminRoles: e.SCHEDULE_ADMIN_ROLES,
    destinations,
  };
}

/** Every destination token, for redaction. */
export function scheduleSecrets(config: ScheduleConfig): string[] {
  return Object.values(config.destinations).map((d) => d.token);
}
