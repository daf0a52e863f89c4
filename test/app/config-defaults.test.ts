// JOBS_COUNTRY and SPEECH_MODEL_ID are settings of the commands, not of one provider's
// credentials: checked at start against what the provider covers, and honoured by the sandbox.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { DEFAULT_JOB_COUNTRY } from '../../src/domain/job-countries.ts';
import { DEFAULT_SPEECH_MODEL_ID } from '../../src/domain/speech.ts';
import { ConfigError } from '../../src/errors.ts';
import { planServices, resolveServiceConfigs } from '../../src/sandbox/resolve.ts';

const ORIGIN = 'http://127.0.0.1:45678';

function problemsOf(env: Record<string, string>): { variable: string; message: string }[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
  return [];
}

describe('JOBS_COUNTRY', () => {
  it('is a configuration problem at start when the job search does not cover it', () => {
    for (const country of ['xx', 'jp', 'uk']) {
      const problems = problemsOf({
        JOBS_APP_ID: 'app-id-1234',
        JOBS_API_KEY: 'jobs-key-1234',
        JOBS_COUNTRY: country,
      });
      expect(problems).toHaveLength(1);
      expect(problems[0]!.variable).toBe('JOBS_COUNTRY');
      expect(problems[0]!.message).toContain('gb');
      expect(problems[0]!.message).toContain('us');
    }
  });

  it('is refused even without the job search credentials, since the sandbox searches with it', () => {
    expect(problemsOf({ JOBS_COUNTRY: 'zz' }).map((p) => p.variable)).toEqual(['JOBS_COUNTRY']);
  });

  it('accepts every covered country and defaults to the domain default', () => {
    expect(loadConfig({ JOBS_COUNTRY: 'de' }).jobsCountry).toBe('de');
    expect(loadConfig({}).jobsCountry).toBe(DEFAULT_JOB_COUNTRY);
    const real = loadConfig({
      JOBS_APP_ID: 'app-id-1234',
      JOBS_API_KEY: 'jobs-key-1234',
      JOBS_COUNTRY: 'fr',
    });
    expect(real.services.jobSearch?.country).toBe('fr');
  });

  it('is honoured by the sandbox when the job search is simulated', () => {
    const config = loadConfig({ JOBS_COUNTRY: 'de' });
    const configs = resolveServiceConfigs(config, planServices(config), ORIGIN);
    expect(configs.jobSearch?.country).toBe('de');
  });
});

describe('SPEECH_MODEL_ID', () => {
  it('is honoured by the sandbox when speech is simulated, and defaults to the domain default', () => {
    const config = loadConfig({ SPEECH_MODEL_ID: 'eleven_flash_v2_5' });
    expect(config.speechModelId).toBe('eleven_flash_v2_5');
    expect(resolveServiceConfigs(config, planServices(config), ORIGIN).speech?.modelId).toBe(
      'eleven_flash_v2_5',
    );
    expect(loadConfig({}).speechModelId).toBe(DEFAULT_SPEECH_MODEL_ID);
  });
});
