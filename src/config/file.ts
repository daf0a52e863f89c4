// The `.env` file: read from the project root when present, with Node's own parser (util.parseEnv,
// the format of `node --env-file`). The environment wins over the file, so a deployment's
// variables are never overridden by a file left on disk. HERALD_ENV_FILE names another file; set
// empty, no file is read (the test spawns do that, so a developer's own .env cannot reach them).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from '../errors.ts';

export const DEFAULT_ENV_FILE = resolve(import.meta.dirname, '..', '..', '.env');

export interface Environment {
  /** The variables herald runs on: the file's, overridden by the process environment. */
  env: Record<string, string | undefined>;
  /** The file that was read, if any. */
  file: string | undefined;
  /** How many variables came from the file (those the environment did not already set). */
  fromFile: number;
}

export function readEnvironment(env: Record<string, string | undefined> = process.env): Environment {
  const file = env.HERALD_ENV_FILE === undefined ? DEFAULT_ENV_FILE : env.HERALD_ENV_FILE.trim();
  if (file === '') return { env, file: undefined, fromFile: 0 };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && env.HERALD_ENV_FILE === undefined) {
      return { env, file: undefined, fromFile: 0 };
    }
    const variable = env.HERALD_ENV_FILE === undefined ? '.env' : 'HERALD_ENV_FILE';
    throw new ConfigError({
      problems: [{ variable, message: `cannot read ${file}: ${(err as Error).message}` }],
    });
  }
  const fileVars = parseEnv(text);
  const fromFile = Object.keys(fileVars).filter((k) => env[k] === undefined).length;
  return { env: { ...fileVars, ...env }, file, fromFile };
}
