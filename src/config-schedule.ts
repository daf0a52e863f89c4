// The configuration section of scheduled reports (/schedule): its limits, who may manage schedules,
// and the named webhook destinations. `WEBHOOK_URL` is the destination `default`; every
// `WEBHOOK_URL_<NAME>` adds `<name>`. A destination is only ever shown by its name.
import { z } from 'zod';
import { isAllowedBaseUrl, list, optionalText, positiveInt } from './config-env.ts';
// A cycle with config.ts, which calls loadScheduleConfig: only functions cross it, at call time.
import { parseWebhookUrl } from './config-sections.ts';
import { canonicalTimeZone, isTimeZone } from './core/when.ts';
import type { ConfigProblem } from './errors.ts';
import type { WebhookConfig } from './services/webhook/client.ts';

export interface ScheduleConfig {
  /** SCHEDULE_TZ: the zone of a schedule added without `tz`. */
  timezone: string;
  /** SCHEDULE_MIN_INTERVAL_MINUTES: nothing more frequent is accepted. */
  minIntervalMinutes: number;
  /** SCHEDULE_MAX: schedules in all, across every replica. */
  max: number;
  /** SCHEDULE_ALLOWED_USERS / _ROLES: who may add, remove, pause, resume and run; empty: the operator only. */
  allowedUsers: string[];
  allowedRoles: string[];
  /** Destination name (lower case) to its webhook; `default` is WEBHOOK_URL's. */
  destinations: Record<string, WebhookConfig>;
}

export const SCHEDULE_DEFAULTS = Object.freeze({ timezone: 'UTC', minIntervalMinutes: 15, max: 50 });

const DESTINATION_VAR_RE = /^WEBHOOK_URL_([A-Za-z0-9_]+)$/;
const DESTINATION_NAME_RE = /^[a-z0-9][a-z0-9_]{0,31}$/;

const ScheduleEnv = z.object({
  SCHEDULE_TZ: optionalText,
  SCHEDULE_MIN_INTERVAL_MINUTES: positiveInt(SCHEDULE_DEFAULTS.minIntervalMinutes),
  SCHEDULE_MAX: positiveInt(SCHEDULE_DEFAULTS.max),
  SCHEDULE_ALLOWED_USERS: list,
  SCHEDULE_ALLOWED_ROLES: list,
});

/** A named destination's address: a whole webhook URL, https (http only on loopback). */
export function parseDestinationUrl(value: string): WebhookConfig | undefined {
  const parts = parseWebhookUrl(value);
  return parts && isAllowedBaseUrl(parts.baseUrl) ? parts : undefined;
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
  };
  const timezone = e.SCHEDULE_TZ ?? SCHEDULE_DEFAULTS.timezone;
  if (!isTimeZone(timezone)) {
    problems.push({
      variable: 'SCHEDULE_TZ',
      message: `unknown time zone "${timezone}" (use an IANA name such as Europe/Berlin)`,
    });
  }
  const destinations: Record<string, WebhookConfig> = {};
  if (defaultWebhook) destinations.default = defaultWebhook;
  for (const [variable, raw] of Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const m = DESTINATION_VAR_RE.exec(variable);
    if (!m || raw === undefined || raw.trim() === '') continue;
    const name = m[1]!.toLowerCase();
    if (name === 'default' || !DESTINATION_NAME_RE.test(name)) {
      problems.push({
        variable,
        message:
          name === 'default'
            ? 'the destination "default" is WEBHOOK_URL; pick another name'
            : 'the name after WEBHOOK_URL_ must be letters, digits or _ (at most 32)',
      });
      continue;
    }
    const webhook = parseDestinationUrl(raw.trim());
    if (!webhook) {
      problems.push({
        variable,
        message: 'must be a whole webhook address: https://host/api/webhooks/ID/TOKEN',
      });
      continue;
    }
    destinations[name] = webhook;
  }
  return {
    timezone: isTimeZone(timezone) ? canonicalTimeZone(timezone) : timezone,
    minIntervalMinutes: e.SCHEDULE_MIN_INTERVAL_MINUTES,
    max: e.SCHEDULE_MAX,
    allowedUsers: e.SCHEDULE_ALLOWED_USERS,
    allowedRoles: e.SCHEDULE_ALLOWED_ROLES,
    destinations,
  };
}

/** Every destination token, for redaction. */
export function scheduleSecrets(config: ScheduleConfig): string[] {
  return Object.values(config.destinations).map((d) => d.token);
}
