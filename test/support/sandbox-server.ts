// Test fakes: the sandbox's msw handlers served on a loopback port, with every request recorded.
import type { RequestHandler } from 'msw';
import { startSandboxServer, type SandboxServer } from '../../src/sandbox/server.ts';

export type { SandboxServer, RecordedRequest } from '../../src/sandbox/server.ts';

/**
 * Starts the fake with undici already loaded. The transport loads undici on the first request of a
 * process, inside that request's deadline, and the load can take a few hundred milliseconds on a
 * busy machine: loaded here, before any test's clock runs, a tight test deadline (FAST_HTTP's
 * 400 ms) measures the fake, whichever file runs first in a worker.
 */
export async function startFake(handlers: RequestHandler[]): Promise<SandboxServer> {
  await import('undici');
  return startSandboxServer({ handlers, record: true });
}
