import { describe, expect, it } from 'vitest';
import { DEFAULT_BASE_URLS, isAllowedBaseUrl } from '../src/config/env.ts';
import { loadConfig, secretsOf } from '../src/config/index.ts';
import { parseWebhookUrl } from '../src/config/sections.ts';
import { problemsOf, SEVEN_PROBLEMS_ENV } from './support/config-problems.ts';

describe('config', () => {
  it('starts with nothing configured: every service disabled, sandbox auto, console defaults', () => {
    const c = loadConfig({});
    expect(c.services).toEqual({});
    expect(c.sandbox).toBe('auto');
    expect(c.discord).toBeUndefined();
    expect(c.slack).toBeUndefined();
    expect(c.storeUrl).toBe('./data/herald.sqlite');
    expect(c.limits).toEqual({ perUserPerMinute: 10, sayDailyChars: 2000 });
    expect(c.analyticsSummary.metrics).toContain('keyEvents');
  });

  it("takes a provider plan's calls per minute, and leaves the free tiers where none is set", () => {
    expect(loadConfig({}).rateLimitsPerMinute).toEqual({});
    const c = loadConfig({ WEATHER_RATE_LIMIT_PER_MINUTE: '3000', JOBS_RATE_LIMIT_PER_MINUTE: '50' });
    expect(c.rateLimitsPerMinute).toEqual({ weather: 3000, jobSearch: 50 });
    expect(
      problemsOf({ WEATHER_RATE_LIMIT_PER_MINUTE: '0', HOSTSCAN_RATE_LIMIT_PER_MINUTE: 'many' }),
    ).toEqual([
      { variable: 'WEATHER_RATE_LIMIT_PER_MINUTE', message: expect.any(String) },
      { variable: 'HOSTSCAN_RATE_LIMIT_PER_MINUTE', message: expect.any(String) },
    ]);
  });

  it("reads Discord's budget: 50 requests a second and 1,000 invalid requests unless set, positive numbers only", () => {
    expect(loadConfig({}).discordBudget).toEqual({ perSecond: 50, invalidLimit: 1_000 });
    expect(
      loadConfig({ DISCORD_GLOBAL_RATE_LIMIT: '1200', DISCORD_INVALID_REQUEST_LIMIT: '500' }).discordBudget,
    ).toEqual({ perSecond: 1_200, invalidLimit: 500 });
    expect(
      problemsOf({ DISCORD_GLOBAL_RATE_LIMIT: '0', DISCORD_INVALID_REQUEST_LIMIT: 'many' }).map(
        (p) => p.variable,
      ),
    ).toEqual(['DISCORD_GLOBAL_RATE_LIMIT', 'DISCORD_INVALID_REQUEST_LIMIT']);
  });

  it('enables a service with its credentials and the provider default base URL', () => {
    const c = loadConfig({
      WEATHER_API_KEY: 'k-weather-123',
      GEOCODING_API_KEY: 'k-geo-1234',
      JOBS_APP_ID: 'app',
      JOBS_API_KEY: 'k-jobs-1234',
    });
    expect(c.services.weather).toEqual({ baseUrl: DEFAULT_BASE_URLS.weather, apiKey: 'k-weather-123' });
    expect(c.services.geocoding?.dataset).toBe('mapbox.places');
    expect(c.services.jobSearch).toMatchObject({ appId: 'app', country: 'gb' });
  });

  it('reports every problem at once, naming each variable: refused values and incomplete settings together', () => {
    const problems = problemsOf({
      WEATHER_BASE_URL: 'http://evil.example.com/data/2.5',
      EMAIL_ACCESS_TOKEN: 'tok-123456',
      ANALYTICS_PROPERTY_ID: 'abc',
      SANDBOX: 'maybe',
      PORT: '99999',
      DISCORD_TOKEN: 'discord-token-123',
    });
    const vars = problems.map((p) => p.variable).sort();
    expect(vars).toEqual([
      'ANALYTICS_PROPERTY_ID',
      'DISCORD_APPLICATION_ID',
      'EMAIL_FROM',
      'PORT',
      'SANDBOX',
      'WEATHER_BASE_URL',
    ]);
  });

  it('lists all seven problems in one error, the cron expression included', () => {
    const problems = problemsOf({ ...SEVEN_PROBLEMS_ENV });
    expect(problems.map((p) => p.variable).sort()).toEqual([
      'ANALYTICS_SUMMARY_CRON',
      'ANALYTICS_SUMMARY_TZ',
      'DISCORD_APPLICATION_ID',
      'EMAIL_FROM',
      'LOG_LEVEL',
      'SANDBOX',
      'WEATHER_BASE_URL',
    ]);
    expect(problems.find((p) => p.variable === 'ANALYTICS_SUMMARY_CRON')?.message).toMatch(
      /^I cannot read "not a cron" as a schedule; .* \(it takes what \/schedule add takes: words such as "every monday at 08:00", or cron\)$/,
    );
  });

  it("reads ANALYTICS_SUMMARY_CRON as /schedule add reads its time: the chat's words or cron", () => {
    expect(loadConfig({ ANALYTICS_SUMMARY_CRON: 'every monday at 08:00' }).analyticsSummary.cron).toBe(
      '0 8 * * 1',
    );
    expect(loadConfig({ ANALYTICS_SUMMARY_CRON: 'every weekday at 07:30' }).analyticsSummary.cron).toBe(
      '30 7 * * 1-5',
    );
    expect(loadConfig({ ANALYTICS_SUMMARY_CRON: '15 6 * * *' }).analyticsSummary.cron).toBe('15 6 * * *');
    expect(loadConfig({}).analyticsSummary.cron).toBe('0 8 * * *');
    const [problem] = problemsOf({ ANALYTICS_SUMMARY_CRON: '0 25 * * *' });
    expect(problem).toEqual({
      variable: 'ANALYTICS_SUMMARY_CRON',
      message: expect.stringMatching(
        /^"0 25 \* \* \*" is not a valid cron expression .*words such as "every monday at 08:00", or cron\)$/,
      ),
    });
  });

  it('reports a refused variable once, not again as the missing half of a pair', () => {
    const problems = problemsOf({ ANALYTICS_ACCESS_TOKEN: 'tok-123456', ANALYTICS_PROPERTY_ID: 'abc' });
    expect(problems).toEqual([
      { variable: 'ANALYTICS_PROPERTY_ID', message: 'must be the numeric GA4 property id' },
    ]);
  });

  it('reports contradictory and incomplete settings together', () => {
    const problems = problemsOf({
      EMAIL_ACCESS_TOKEN: 'tok-123456',
      DISCORD_TOKEN: 'discord-token-123',
      SLACK_BOT_TOKEN: 'bot-token-123',
      WEBHOOK_URL: 'https://discord.com/api/webhooks/1/abc',
      WEBHOOK_ID: '2',
      ANALYTICS_SUMMARY_TZ: 'Mars/Olympus',
      ANALYTICS_SUMMARY_EMAIL_TO: 'ops@example.com,not-an-address',
    });
    const vars = problems.map((p) => p.variable).sort();
    expect(vars).toEqual([
      'ANALYTICS_SUMMARY_EMAIL_TO',
      'ANALYTICS_SUMMARY_TZ',
      'DISCORD_APPLICATION_ID',
      'EMAIL_FROM',
      'SLACK_APP_TOKEN',
      'WEBHOOK_URL',
    ]);
  });

  it('accepts https anywhere and http only on loopback', () => {
    expect(isAllowedBaseUrl('https://api.example.com/v1')).toBe(true);
    expect(isAllowedBaseUrl('http://127.0.0.1:8080/x')).toBe(true);
    expect(isAllowedBaseUrl('http://localhost:1')).toBe(true);
    expect(isAllowedBaseUrl('http://10.0.0.1')).toBe(false);
    expect(isAllowedBaseUrl('https://user:pw@api.example.com')).toBe(false);
    expect(isAllowedBaseUrl('ftp://x')).toBe(false);
    expect(isAllowedBaseUrl('not a url')).toBe(false);
  });

  it('counts as loopback only 127.0.0.0/8, [::1] and localhost, not a name that starts like one', () => {
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://127.1.2.3/x',
      'http://127.255.255.254:1/',
      'http://127.1/x', // the URL parser reads it as 127.0.0.1
      'http://[::1]:4010/v1',
      'http://localhost/x',
      'http://LOCALHOST:1/x',
    ]) {
      expect(isAllowedBaseUrl(url), url).toBe(true);
    }
    for (const url of [
      'http://127.attacker.example/x',
      'http://127.0.0.1.attacker.example/x',
      'http://127.0.0.1.nip.io/x',
      'http://localhost.attacker.example/x',
      'http://localhost.localdomain/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[::2]/x',
      'http://128.0.0.1/x',
      'http://0.0.0.0/x',
    ]) {
      expect(isAllowedBaseUrl(url), url).toBe(false);
    }
    expect(problemsOf({ WEATHER_BASE_URL: 'http://127.attacker.example/x' })).toEqual([
      { variable: 'WEATHER_BASE_URL', message: expect.stringMatching(/^must be an https:\/\/ URL/) },
    ]);
  });

  it('serves health on loopback by default, on HEALTH_HOST when set, and beside Slack HTTP mode on PORT', () => {
    expect(loadConfig({}).health).toBeUndefined();
    const loopback = {
      host: '127.0.0.1',
      metricsPort: undefined,
      isMetricsOnPort: true,
      defaultHost: true,
      maxConnections: 4_096,
      maxConnectionsPerAddress: undefined,
      maxUnverifiedConnections: 1_000,
    };
    expect(loadConfig({ HEALTH_PORT: '9090' }).health).toEqual({
      ...loopback,
      port: 9090,
      portVariable: 'HEALTH_PORT',
    });
    expect(loadConfig({ PORT: '8080' }).health).toEqual({ ...loopback, port: 8080, portVariable: 'PORT' });
    expect(loadConfig({ HEALTH_PORT: '9090', HEALTH_HOST: '0.0.0.0' }).health?.host).toBe('0.0.0.0');
    expect(loadConfig({ HEALTH_PORT: '9090', HEALTH_HOST: '[::]' }).health?.host).toBe('::');
    const slackHttp = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'signing-secret-1', PORT: '8080' };
    // Slack must reach its endpoint, and the platforms' probes PORT: every interface, no /metrics there.
    expect(loadConfig(slackHttp).health).toEqual({
      ...loopback,
      host: '0.0.0.0',
      isMetricsOnPort: false,
      port: 8080,
      portVariable: 'PORT',
    });
    expect(loadConfig({ ...slackHttp, PORT: undefined }).health?.port).toBe(3000);
    expect(problemsOf({ HEALTH_PORT: '9090', HEALTH_HOST: 'everywhere' }).map((p) => p.variable)).toEqual([
      'HEALTH_HOST',
    ]);
    expect(problemsOf({ ...slackHttp, HEALTH_PORT: '9090' }).map((p) => p.variable)).toEqual(['HEALTH_PORT']);
    expect(loadConfig({ ...slackHttp, HEALTH_PORT: '8080' }).health?.port).toBe(8080);
  });

  it('keeps /metrics off a port that serves a platform endpoint unless asked for in so many words', () => {
    const discordHttp = {
      DISCORD_TOKEN: 'discord-token-1',
      DISCORD_APPLICATION_ID: '1100000000000000001',
      DISCORD_MODE: 'http',
      DISCORD_PUBLIC_KEY: 'ab'.repeat(32),
      PORT: '8080',
    };
    expect(loadConfig(discordHttp).health).toMatchObject({ port: 8080, isMetricsOnPort: false });
    expect(loadConfig({ ...discordHttp, METRICS_PORT: '9464' }).health).toMatchObject({
      isMetricsOnPort: false,
      metricsPort: 9464,
    });
    expect(loadConfig({ ...discordHttp, METRICS_ON_INTERACTIONS_PORT: 'true' }).health).toMatchObject({
      isMetricsOnPort: true,
    });
    // The gateway's port serves probes only: /metrics stays there as before.
    expect(loadConfig({ ...discordHttp, DISCORD_MODE: 'gateway' }).health).toMatchObject({
      isMetricsOnPort: true,
    });
    expect(
      problemsOf({ ...discordHttp, METRICS_PORT: '9464', METRICS_ON_INTERACTIONS_PORT: 'true' }).map(
        (p) => p.variable,
      ),
    ).toEqual(['METRICS_ON_INTERACTIONS_PORT']);
  });

  it("caps the public server's connections in total, and per address only where set", () => {
    const health = loadConfig({
      PORT: '8080',
      HTTP_MAX_CONNECTIONS: '500',
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '20',
      HTTP_MAX_UNVERIFIED_CONNECTIONS: '300',
    }).health;
    expect(health).toMatchObject({
      maxConnections: 500,
      maxConnectionsPerAddress: 20,
      maxUnverifiedConnections: 300,
    });
    expect(problemsOf({ PORT: '8080', HTTP_MAX_CONNECTIONS: '0' }).map((p) => p.variable)).toEqual([
      'HTTP_MAX_CONNECTIONS',
    ]);
  });

  it('splits a whole webhook address and keeps its path', () => {
    expect(parseWebhookUrl('https://discord.com/api/webhooks/123/tok-en_x')).toEqual({
      baseUrl: 'https://discord.com/api/webhooks',
      id: '123',
      token: 'tok-en_x',
    });
    expect(parseWebhookUrl('https://discord.com/api/other/123')).toBeUndefined();
    const c = loadConfig({ WEBHOOK_URL: 'http://127.0.0.1:9/api/webhooks/42/secret-token-1' });
    expect(c.services.webhook).toEqual({
      baseUrl: 'http://127.0.0.1:9/api/webhooks',
      id: '42',
      token: 'secret-token-1',
    });
    expect(secretsOf(c)).toContain('secret-token-1');
  });

  it('uses Redis for the store when REDIS_URL is set', () => {
    const c = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(c.storeUrl).toBe('redis://127.0.0.1:6379');
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
  });
});
