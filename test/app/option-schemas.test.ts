// The rules of an option live in its schema, so a typed line (console, Slack), Discord's typed
// options and `/schedule add` refuse a bad value alike, in the same sentence, with no upstream request.
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import type { Services } from '../../src/core/services.ts';
import { UserError } from '../../src/errors.ts';
import { createLogger } from '../../src/log.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import { OPERATOR as operator } from '../support/command-doubles.ts';

/** Service clients that record every call and never answer: any request is a failure of the test. */
function recordingServices(calls: string[]): Services {
  const client = (name: string) =>
    new Proxy(
      {},
      {
        get: (_target, prop) =>
          prop === 'then'
            ? undefined
            : (..._args: unknown[]) => {
                calls.push(`${name}.${String(prop)}`);
                return Promise.reject(new Error('no upstream in this test'));
              },
      },
    );
  return Object.fromEntries(
    ['email', 'analytics', 'weather', 'geocoding', 'speech', 'hostscan', 'webhook', 'jobSearch'].map((k) => [
      k,
      client(k),
    ]),
  );
}

function world() {
  const calls: string[] = [];
  const schedules = createMemoryStore();
  const app = buildApp(loadConfig({ JOBS_COUNTRY: 'gb' }), 'job', {
    services: recordingServices(calls),
    store: schedules,
    destinations: {},
    log: createLogger({ level: 'silent', format: 'json' }),
  });
  return { app, calls, schedules };
}

/** Runs one invocation through the dispatcher; resolves with the reply text. */
async function invoke(
  app: ReturnType<typeof world>['app'],
  command: string,
  rawInput: string | Record<string, unknown>,
): Promise<string> {
  let text = '';
  await app.dispatcher.onInvocation({
    command,
    rawInput,
    actor: operator,
    channelId: 'c1',
    signal: new AbortController().signal,
    respond: (reply) => {
      text = reply.text;
      return Promise.resolve();
    },
  });
  return text;
}

const CASES: {
  name: string;
  command: string;
  typed: string;
  options: Record<string, unknown>;
  says: RegExp;
  /** /email send changes something, so it is never scheduled (refused for that first). */
  unschedulable?: true;
}[] = [
  {
    name: 'a host name for /host',
    command: 'host',
    typed: 'example.com',
    options: { ip: 'example.com' },
    says: /“example\.com” is not an IP address; give an IPv4 address such as 8\.8\.8\.8/,
  },
  {
    name: 'an IPv4 address with an octet over 255 for /host',
    command: 'host',
    typed: '999.1.1.1',
    options: { ip: '999.1.1.1' },
    says: /“999\.1\.1\.1” is not an IP address/,
  },
  {
    name: 'a country the job search does not cover for /jobs',
    command: 'jobs',
    typed: 'rust country:jp',
    options: { what: 'rust', country: 'jp' },
    says: /The job search does not cover “jp”; use one of at, au, .*gb/,
  },
  {
    name: 'something that is not an email id for /email status',
    command: 'email status',
    typed: 'last-week',
    options: { id: 'last-week' },
    says: /That is not an email id; \/email send replies with one/,
  },
  {
    name: 'something that is not an address for /email send',
    command: 'email send',
    typed: 'ops "Deploy" done',
    options: { to: 'ops', subject: 'Deploy', body: 'done' },
    says: /“ops” is not an email address; give one address such as ops@example\.com/,
    unschedulable: true,
  },
  {
    name: 'a ";" in a place search for /geocode',
    command: 'geocode',
    typed: '"Paris; London"',
    options: { query: 'Paris; London' },
    says: /A place search cannot contain ";"/,
  },
];

describe('an option rule in the schema', () => {
  for (const c of CASES) {
    it(`refuses ${c.name} typed, as Discord options and at /schedule add, with no request`, async () => {
      const { app, calls, schedules } = world();
      const [group, sub] = c.command.split(' ');
      const typedCommand = sub === undefined ? c.command : group!;
      const typedText = sub === undefined ? c.typed : `${sub} ${c.typed}`;
      expect(await invoke(app, typedCommand, typedText)).toMatch(c.says);
      expect(await invoke(app, c.command, c.options)).toMatch(c.says);
      const added = await invoke(app, 'schedule', `add "every day at 08:00" /${c.command} ${c.typed}`);
      expect(added).toMatch(c.unschedulable ? /cannot be scheduled/ : c.says);
      const checked = await app.dispatcher
        .check(`/${c.command} ${c.typed}`, operator)
        .catch((e: unknown) => e);
      expect(checked).toBeInstanceOf(UserError);
      expect((checked as UserError).message).toMatch(c.says);
      expect(calls).toEqual([]);
      expect(await schedules.listSchedules()).toEqual([]);
    });
  }

  it('still answers an internal address locally, and a good address reaches the service', async () => {
    const { app, calls } = world();
    expect(await invoke(app, 'host', { ip: '10.0.0.1' })).toMatch(/private/);
    expect(calls).toEqual([]);
    await invoke(app, 'host', { ip: '8.8.8.8' });
    expect(calls).toEqual(['hostscan.host']);
  });
});
