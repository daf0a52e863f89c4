// Test fakes: the sandbox's msw handlers served on a loopback port, with every request recorded.
import type { RequestHandler } from 'msw';
import { startSandboxServer, type SandboxServer } from '../../src/sandbox/server.ts';

export type { SandboxServer, RecordedRequest } from '../../src/sandbox/server.ts';

export function startFake(handlers: RequestHandler[]): Promise<SandboxServer> {
  return startSandboxServer({ handlers, record: true });
}
