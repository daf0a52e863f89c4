import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { SANDBOX_CREDENTIAL, planServices, resolveServiceConfigs } from '../../src/sandbox/resolve.ts';

const ORIGIN = 'http://127.0.0.1:45678';
const WEATHER_KEY = 'sentinel-weather-key-1234';

const discord = { DISCORD_TOKEN: 'sentinel-discord-token', DISCORD_APPLICATION_ID: '123456789012345678' };

describe('planServices', () => {
  it('simulates every service when nothing is configured (SANDBOX=auto)', () => {
    const plan = planServices(loadConfig({}));
    expect(plan.simulated).toEqual([
      'email',
      'analytics',
      'weather',
      'geocoding',
      'speech',
      'hostscan',
      'webhook',
      'jobSearch',
    ]);
    expect(plan.real).toEqual([]);
    expect(plan.disabled).toEqual([]);
  });

  it('uses the real service where credentials are set and simulates the rest, with no platform token', () => {
    const plan = planServices(loadConfig({ WEATHER_API_KEY: WEATHER_KEY }));
    expect(plan.modes.weather).toBe('real');
    expect(plan.real).toEqual(['weather']);
    expect(plan.simulated).toHaveLength(7);
  });

  it('simulates nothing once a platform token is set, so a real chat never sees made-up data', () => {
    const plan = planServices(loadConfig({ ...discord, WEATHER_API_KEY: WEATHER_KEY }));
    expect(plan.real).toEqual(['weather']);
    expect(plan.simulated).toEqual([]);
    expect(plan.disabled).toHaveLength(7);
    const slack = planServices(
      loadConfig({ SLACK_BOT_TOKEN: 'sentinel-slack-bot', SLACK_SIGNING_SECRET: 'sentinel-signing-secret' }),
    );
    expect(slack.simulated).toEqual([]);
  });

  it('simulates every service with SANDBOX=on, even configured ones and with a platform token', () => {
    const plan = planServices(loadConfig({ ...discord, SANDBOX: 'on', WEATHER_API_KEY: WEATHER_KEY }));
    expect(plan.simulated).toHaveLength(8);
    expect(plan.real).toEqual([]);
  });

  it('never simulates with SANDBOX=off', () => {
    const plan = planServices(loadConfig({ SANDBOX: 'off', WEATHER_API_KEY: WEATHER_KEY }));
    expect(plan.real).toEqual(['weather']);
    expect(plan.simulated).toEqual([]);
    expect(plan.disabled).toHaveLength(7);
  });
});

describe('resolveServiceConfigs', () => {
  it('points simulated services at the sandbox with the sandbox credential, and keeps real ones as configured', () => {
    const config = loadConfig({
      WEATHER_API_KEY: WEATHER_KEY,
      WEATHER_BASE_URL: 'https://weather.example.com/data/2.5',
    });
    const configs = resolveServiceConfigs(config, planServices(config), ORIGIN);
    expect(configs.weather).toEqual({ baseUrl: 'https://weather.example.com/data/2.5', apiKey: WEATHER_KEY });
    expect(configs.geocoding).toEqual({
      baseUrl: `${ORIGIN}/geocoding-api`,
      apiKey: SANDBOX_CREDENTIAL,
      dataset: 'mapbox.places',
    });
    expect(configs.email?.baseUrl).toBe(`${ORIGIN}/email`);
    expect(configs.analytics).toMatchObject({
      baseUrl: `${ORIGIN}/analytics/v1beta`,
      propertyId: '123456789',
    });
    expect(configs.speech).toMatchObject({
      baseUrl: `${ORIGIN}/speech/v1`,
      modelId: 'eleven_multilingual_v2',
    });
    expect(configs.hostscan).toMatchObject({ baseUrl: `${ORIGIN}/hostscan`, provider: 'shodan' });
    expect(configs.webhook).toMatchObject({
      baseUrl: `${ORIGIN}/webhook/api/webhooks`,
      token: SANDBOX_CREDENTIAL,
    });
    expect(configs.jobSearch).toMatchObject({
      baseUrl: `${ORIGIN}/jobs/v1/api`,
      country: 'gb',
      apiKey: SANDBOX_CREDENTIAL,
    });
  });

  it('never hands a real credential to the simulator under SANDBOX=on, but keeps non-secret settings', () => {
    const config = loadConfig({
      SANDBOX: 'on',
      SPEECH_API_KEY: 'sentinel-speech-key-999',
      SPEECH_MODEL_ID: 'eleven_flash_v2_5',
      JOBS_APP_ID: 'sentinel-app-id',
      JOBS_API_KEY: 'sentinel-app-key-777',
      JOBS_COUNTRY: 'de',
    });
    const configs = resolveServiceConfigs(config, planServices(config), ORIGIN);
    expect(configs.speech).toMatchObject({ apiKey: SANDBOX_CREDENTIAL, modelId: 'eleven_flash_v2_5' });
    expect(configs.jobSearch).toMatchObject({ apiKey: SANDBOX_CREDENTIAL, country: 'de' });
    expect(JSON.stringify(configs)).not.toMatch(/sentinel/);
  });

  it('leaves disabled services out', () => {
    const config = loadConfig({ ...discord, WEATHER_API_KEY: WEATHER_KEY });
    const configs = resolveServiceConfigs(config, planServices(config), undefined);
    expect(Object.keys(configs)).toEqual(['weather']);
  });

  it('refuses to simulate without a sandbox origin', () => {
    const config = loadConfig({});
    expect(() => resolveServiceConfigs(config, planServices(config), undefined)).toThrow(/sandbox origin/);
  });
});
