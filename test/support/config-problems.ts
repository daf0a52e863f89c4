// The problems loadConfig lists for an environment that must be refused.
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
