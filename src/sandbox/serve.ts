// `npm run sandbox`: the simulator on its own, for trying clients or another herald against it.
// Listens on 127.0.0.1:SANDBOX_PORT (4010) and prints each service's base URL as an env line.
import { SANDBOX_PREFIXES, sandboxBaseUrl, type SandboxService } from './layout.ts';
import { sandboxHandlers } from './index.ts';
import { startSandboxServer } from './server.ts';

const ENV_NAMES: Readonly<Record<SandboxService, string>> = {
  email: 'EMAIL_BASE_URL',
  analytics: 'ANALYTICS_BASE_URL',
  weather: 'WEATHER_BASE_URL',
  geocoding: 'GEOCODING_BASE_URL',
  speech: 'SPEECH_BASE_URL',
  hostscan: 'HOSTSCAN_BASE_URL',
  webhook: 'WEBHOOK_BASE_URL',
  jobSearch: 'JOBS_BASE_URL',
};

const USAGE = `Usage: npm run sandbox [-- --help]

Serves herald's simulator of its eight services on 127.0.0.1 and prints each service's base URL as
the variable that points herald (or any client) at it. Stop it with Ctrl-C.

  SANDBOX_PORT         its port (default 4010)
  SANDBOX_LATENCY_MS   added to every answer (default 0)
  SANDBOX_FAULT_RATE   share of answers that fail, 0 to 1 (default 0)
`;

const argv = process.argv.slice(2);
if (argv.length > 0) {
  const isHelp = argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h');
  if (isHelp) process.stdout.write(USAGE);
  else process.stderr.write(`npm run sandbox: unknown option ${argv.join(' ')} (try --help)\n`);
  process.exit(isHelp ? 0 : 2);
}

function numberFrom(name: string, fallback: number, max: number): number {
  const text = process.env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > max) {
    process.stderr.write(`${name} must be a number from 0 to ${max}; got "${text}".\n`);
    process.exit(2);
  }
  return value;
}

const port = numberFrom('SANDBOX_PORT', 4010, 65_535);
const latencyMs = numberFrom('SANDBOX_LATENCY_MS', 0, 60_000);
const faultRate = numberFrom('SANDBOX_FAULT_RATE', 0, 1);

const server = await startSandboxServer({
  handlers: sandboxHandlers(),
  port: Math.trunc(port),
  latencyMs,
  faultRate,
});
// The handlers before the address is printed: whoever reads it may signal at once (a SIGTERM
// between the two would find Node's default action and kill the process, exit code lost).
let isClosing = false;
function stop(): void {
  if (isClosing) process.exit(130);
  isClosing = true;
  void server.close().then(() => process.exit(0));
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const lines = [
  `herald sandbox listening on ${server.url} (latency ${latencyMs} ms, fault rate ${faultRate})`,
  'Point herald or any client at it with these variables; any non-empty credential is accepted:',
  ...(Object.keys(SANDBOX_PREFIXES) as SandboxService[]).map(
    (service) => `  ${ENV_NAMES[service]}=${sandboxBaseUrl(server.url, service)}`,
  ),
  'Press Ctrl-C to stop.',
];
process.stdout.write(`${lines.join('\n')}\n`);
