import { describe, expect, it } from 'vitest';
import { loadConfig, secretsOf } from '../../src/config/index.ts';
import { problemsOf } from '../support/config-problems.ts';

const HOOK = 'https://discord.com/api/webhooks/111/tok-default-abc';

describe('config: scheduled reports', () => {
  it('has safe defaults: UTC, 15 minutes, 1,000 schedules, operator only, no destination', () => {
    expect(loadConfig({}).schedule).toEqual({
      timezone: 'UTC',
      minIntervalMinutes: 15,
      max: 1_000,
      allowedUsers: [],
      allowedRoles: [],
      adminUsers: [],
      adminRoles: [],
      destinations: {},
    });
  });

  it("reads who may manage others' schedules from SCHEDULE_ADMIN_USERS and SCHEDULE_ADMIN_ROLES", () => {
    const c = loadConfig({
      SCHEDULE_ADMIN_USERS: 'U0ADMIN01, 400000000000000077',
      SCHEDULE_ADMIN_ROLES: '600000000000000001',
    });
    expect(c.schedule.adminUsers).toEqual(['U0ADMIN01', '400000000000000077']);
    expect(c.schedule.adminRoles).toEqual(['600000000000000001']);
  });

  it('names WEBHOOK_URL "default" and each WEBHOOK_URL_<NAME> "<name>", and redacts every token', () => {
    const c = loadConfig({
      WEBHOOK_URL: HOOK,
      WEBHOOK_URL_OPS: 'https://discord.com/api/webhooks/222/tok-ops-def',
      WEBHOOK_URL_Sales_EU: 'http://127.0.0.1:9000/api/webhooks/333/tok-sales-ghi',
      SCHEDULE_TZ: 'europe/berlin',
      SCHEDULE_MIN_INTERVAL_MINUTES: '1',
      SCHEDULE_MAX: '3',
      SCHEDULE_ALLOWED_USERS: 'U1, U2',
      SCHEDULE_ALLOWED_ROLES: 'R1',
    });
    expect(Object.keys(c.schedule.destinations)).toEqual(['default', 'ops', 'sales_eu']);
    expect(c.schedule.destinations.ops).toEqual({
      kind: 'discord',
      baseUrl: 'https://discord.com/api/webhooks',
      id: '222',
      token: 'tok-ops-def',
    });
    expect(c.schedule).toMatchObject({
      timezone: 'Europe/Berlin',
      minIntervalMinutes: 1,
      max: 3,
      allowedUsers: ['U1', 'U2'],
      allowedRoles: ['R1'],
    });
    expect(secretsOf(c)).toEqual(expect.arrayContaining(['tok-default-abc', 'tok-ops-def', 'tok-sales-ghi']));
  });

  it('refuses a webhook named "me" in one sentence: to:me is the creator\'s direct messages', () => {
    const problems = problemsOf({
      WEBHOOK_URL: HOOK,
      WEBHOOK_URL_ME: 'https://discord.com/api/webhooks/444/tok-me',
    });
    expect(problems).toEqual([
      {
        variable: 'WEBHOOK_URL_ME',
        message:
          'to:me is a direct message to whoever adds the schedule, so no webhook can be named "me"; pick another name',
      },
    ]);
    // Names are read in lower case, as to: reads them.
    const mixed = problemsOf({ WEBHOOK_URL_Me: 'https://discord.com/api/webhooks/444/tok-me' });
    expect(mixed.map((p) => p.variable)).toEqual(['WEBHOOK_URL_Me']);
  });

  it('reports every bad variable at once, never echoing an address', () => {
    const problems = problemsOf({
      WEBHOOK_URL_OPS: 'http://example.com/api/webhooks/1/secret-token-1',
      WEBHOOK_URL_DEFAULT: HOOK,
      WEBHOOK_URL_X: 'not a url',
      SCHEDULE_TZ: 'Mars/Olympus',
      SCHEDULE_MIN_INTERVAL_MINUTES: '0',
      SCHEDULE_MAX: 'lots',
    });
    expect(problems.map((p) => p.variable).sort()).toEqual([
      'SCHEDULE_MAX',
      'SCHEDULE_MIN_INTERVAL_MINUTES',
      'SCHEDULE_TZ',
      'WEBHOOK_URL_DEFAULT',
      'WEBHOOK_URL_OPS',
      'WEBHOOK_URL_X',
    ]);
    expect(JSON.stringify(problems)).not.toMatch(/secret-token-1|tok-default-abc/);
  });
});
