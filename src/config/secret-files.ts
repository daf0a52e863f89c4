// Credentials from files: `<NAME>_FILE` names a file that holds the value of the secret variable
// NAME, as Docker and Kubernetes mount secrets. loadConfig reads them before anything else, so the
// rest of the configuration sees NAME as if it were set; a value both set and named by a file is
// refused rather than one silently winning. What a file holds is a credential, registered for
// redaction with the others (secretsOf), whichever variable it fills.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import type { ConfigProblem } from '../errors.ts';

/** The variables that hold a credential, each also readable from `<NAME>_FILE`. */
export const SECRET_VARIABLES: readonly string[] = [
  'EMAIL_ACCESS_TOKEN',
  'ANALYTICS_ACCESS_TOKEN',
  'WEATHER_API_KEY',
  'GEOCODING_API_KEY',
  'SPEECH_API_KEY',
  'HOSTSCAN_API_KEY',
  'WEBHOOK_URL',
  'WEBHOOK_TOKEN',
  'JOBS_APP_ID',
  'JOBS_API_KEY',
  'DISCORD_TOKEN',
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  // A redis:// address may carry the password.
  'REDIS_URL',
  'STORE_URL',
];

/** Each named destination's whole webhook address is a credential too (its token is in it). */
const DESTINATION_VARIABLE = /^WEBHOOK_URL_[A-Za-z0-9_]+$/;

/** A secret is one line; anything larger is the wrong file. */
export const MAX_SECRET_FILE_BYTES = 64 * 1024;

export function isSecretVariable(name: string): boolean {
  return SECRET_VARIABLES.includes(name) || DESTINATION_VARIABLE.test(name);
}

interface SecretFiles {
  /** The environment with every `<NAME>_FILE` of a secret replaced by NAME and its file's text. */
  env: Record<string, string | undefined>;
  /** The values read from files, for redaction. */
  secrets: string[];
  problems: ConfigProblem[];
}

/**
 * Reads every `<NAME>_FILE` of a secret variable. The file's text is the value, less one trailing
 * line break (what `echo` and most editors leave). An empty `<NAME>_FILE` is unset.
 */
export function readSecretFiles(env: Record<string, string | undefined>): SecretFiles {
  const out = { ...env };
  const secrets: string[] = [];
  const problems: ConfigProblem[] = [];
  for (const [fileVariable, path] of Object.entries(env)) {
    const name = fileVariable.endsWith('_FILE') ? fileVariable.slice(0, -'_FILE'.length) : '';
    if (!isSecretVariable(name)) continue;
    // Never passed on: WEBHOOK_URL_OPS_FILE must not read as a destination named ops_file.
    delete out[fileVariable];
    if (path === undefined || path.trim() === '') continue;
    if (env[name] !== undefined && env[name].trim() !== '') {
      problems.push({ variable: fileVariable, message: `set either ${name} or ${fileVariable}, not both` });
      continue;
    }
    const read = readSecret(path.trim());
    if ('problem' in read) {
      problems.push({ variable: fileVariable, message: read.problem });
      continue;
    }
    out[name] = read.value;
    if (read.value.trim() !== '') secrets.push(read.value.trim());
  }
  return { env: out, secrets, problems };
}

/**
 * Opens without blocking (a FIFO would otherwise wait for a writer), follows symlinks (Kubernetes
 * mounts a Secret's keys as links into `..data/`), and reads only a regular file no larger than the
 * cap, checked on the opened file before a byte is read: `/dev/zero` or a FIFO never reads.
 */
function readSecret(path: string): { value: string } | { problem: string } {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile())
      return {
        problem: `${path} is ${kindOf(stats)}, not a regular file; name the file that holds the value`,
      };
    if (stats.size > MAX_SECRET_FILE_BYTES)
      return { problem: `${path} holds ${stats.size} bytes; a credential file holds one value` };
    const buffer = Buffer.alloc(stats.size);
    const length = stats.size === 0 ? 0 : readSync(fd, buffer, 0, stats.size, 0);
    return {
      value: buffer
        .subarray(0, length)
        .toString('utf8')
        .replace(/\r?\n$/, ''),
    };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { problem: `cannot read ${path}${code ? ` (${code})` : ''}` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'something else';
}
