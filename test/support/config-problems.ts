// The problems loadConfig lists for an environment that must be refused, and one environment with
// seven problems at once (the unit test and the start-up test both refuse it).
import { expect } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { ConfigError, type ConfigProblem } from '../../src/errors.ts';

export function problemsOf(env: Record<string, string>): ConfigProblem[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return [...(err as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

/** Seven problems: a plain-http base URL, two bad values, two half-configured services, a zone, a cron. */
export const SEVEN_PROBLEMS_ENV: Readonly<Record<string, string>> = {
  WEATHER_BASE_URL: 'http://example.com',
  SANDBOX: 'maybe',
  LOG_LEVEL: 'loud',
  EMAIL_ACCESS_TOKEN: 'x',
  DISCORD_TOKEN: 'x',
  ANALYTICS_SUMMARY_TZ: 'Mars/Base',
  ANALYTICS_SUMMARY_CRON: 'not a cron',
};
