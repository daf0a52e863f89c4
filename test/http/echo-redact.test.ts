// An upstream that echoes a configured secret hands it to no caller, however its JSON spells the
// string: plain, with escaped slashes, with \u escapes, percent-encoded. The client
// skips the walk over a parsed answer only when its text provably holds no secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import { createHttpClient } from '../../src/http/client.ts';
import { REDACTED, registerSecret } from '../../src/redact.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const SECRET = 'wk_9f3A/b7Qz2LmX8pR';
const Answer = z.looseObject({ name: z.string(), sys: z.looseObject({ country: z.string() }) });
const bodies: Record<string, string> = {
  plain: `{"name":"Paris ${SECRET}","sys":{"country":"FR","id":6550}}`,
  'escaped slash': `{"name":"Paris ${SECRET.replace('/', '\\/')}","sys":{"country":"FR","id":6550}}`,
  'unicode escapes': `{"name":"Paris \\u0077\\u006b${SECRET.slice(2)}","sys":{"country":"FR","id":6550}}`,
  'percent-encoded': `{"name":"Paris ${encodeURIComponent(SECRET)}","sys":{"country":"FR","id":6550}}`,
  clean: `{"name":"Paris","sys":{"country":"FR","id":6550}}`,
};
let server: SandboxServer;

beforeAll(async () => {
  registerSecret(SECRET);
  server = await startFake([
    http.get('*/echo/:case', ({ params }) =>
      HttpResponse.text(bodies[String(params.case)] ?? '{}', {
        headers: { 'content-type': 'application/json' },
      }),
    ),
  ]);
});
afterAll(() => server.close());

describe('a parsed answer echoing a secret', () => {
  for (const name of Object.keys(bodies)) {
    it(`holds none of it when spelled ${name}`, async () => {
      const c = createHttpClient({ service: 'weather', baseUrl: server.url });
      const out = await c.send(
        {
          service: 'weather',
          operation: 'current',
          method: 'GET',
          path: `/echo/${encodeURIComponent(name)}`,
        },
        Answer,
      );
      await c.close();
      const json = JSON.stringify(out);
      expect(json).not.toContain(SECRET);
      expect(json).not.toContain(encodeURIComponent(SECRET));
      expect(out.sys).toEqual({ country: 'FR', id: 6550 });
      expect(out.name).toBe(name === 'clean' ? 'Paris' : `Paris ${REDACTED}`);
    });
  }
});
