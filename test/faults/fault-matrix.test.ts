// The fault matrix: every command, with valid input, against each fault of every upstream
// it uses, through the real dispatcher, the real clients and a loopback fake. Each cell shows that
// the process survives, that the invoker gets one private sentence in time, and that the log
// carries the failure with its service error code and no credential.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_LABELS } from '../../src/errors.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { COMMAND_CASES, cellsOf, fakeHandlers, type Cell, type Credentials } from './fault-cells.ts';
import { BODY_MARKER, EXPECTED_CODES, RETRY_AFTER_S } from './faults.ts';
import { createHarness, leaksIn, requestsTo, runCell, runInvocation, type Harness } from './harness.ts';

const CREDS: Credentials = {
  emailToken: 'matrix-email-token-41b7',
  analyticsToken: 'matrix-analytics-token-93c2',
  weatherKey: 'matrix-weather-key-0e55',
  geocodingKey: 'matrix-geocoding-key-6a1d',
  speechKey: 'matrix-speech-key-d4f0',
  hostscanKey: 'matrix-hostscan-key-2c88',
  webhookToken: 'matrix-webhook-token-7719',
  jobsAppId: 'matrix-jobs-app-5b3e',
  jobsApiKey: 'matrix-jobs-key-e902',
};

/** Discord and Slack ack or defer at once, but the answer itself must come in this time. */
const DEADLINE_MS = 3_000;

let server: SandboxServer;
let harness: Harness;
let unhandled = 0;
const onUnhandled = (): void => {
  unhandled += 1;
};

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  const base = fakeHandlers(CREDS);
  server = await startFake(base);
  harness = createHarness(server, base, CREDS);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await server.close();
});

const STACK_FRAME = /\bat \S+ \(|\bat \S+:\d+:\d+|\bat (async )?file:/;

describe('the fault matrix setup', () => {
  it.each(COMMAND_CASES.map((c) => [c.label, c] as const))(
    '%s answers normally when no upstream fails, so every fault cell below starts from a working call',
    async (_label, c) => {
      const run = await runInvocation(harness, c);
      expect(run.replies).toHaveLength(1);
      const finished = run.log.find((l) => l.msg === 'command.finished');
      expect(finished, run.replies[0]?.text).toBeDefined();
      for (const upstream of c.upstreams) expect(requestsTo(run, upstream).length).toBeGreaterThan(0);
    },
  );

  it('covers every command of buildCommands that calls an upstream', () => {
    const covered = new Set(COMMAND_CASES.map((c) => c.label.slice(1)));
    const calling = harness.registry.commands.filter((c) => c.needs.length > 0).map((c) => c.name);
    expect(calling.sort()).toEqual([...covered].sort());
  });
});

const CELLS = cellsOf();

describe('every command against every fault of every upstream it uses', () => {
  it.each(CELLS.map((cell) => [cell.name, cell] as const))('%s', async (_name, cell: Cell) => {
    const before = unhandled;
    const run = await runCell(harness, cell);
    const service = cell.upstream.service;

    // The fault was met: the upstream was asked (and with retries, for a retried failure).
    expect(requestsTo(run, cell.upstream).length).toBeGreaterThan(0);

    // Exactly one reply, private, in time.
    expect(run.replies).toHaveLength(1);
    const reply = run.replies[0]!;
    expect(reply.ephemeral).toBe(true);
    expect(run.replyMs).toBeLessThan(DEADLINE_MS);
    expect(reply.attachments ?? []).toHaveLength(0);

    // One clear sentence naming the service, with nothing of the transport in it.
    const text = reply.text;
    expect(text).toMatch(/^[A-Z].*\.$/);
    expect(text).not.toMatch(/[\r\n]/);
    expect(text).not.toMatch(/[.!?]\s+[A-Z]/);
    expect(text).toContain(`The ${SERVICE_LABELS[service]} service`);
    expect(text.toLowerCase()).not.toContain('http');
    expect(text).not.toMatch(/[a-z]+:\/\/|www\.|\/\w+\/\w+/i);
    expect(text).not.toMatch(STACK_FRAME);
    expect(text).not.toContain(BODY_MARKER);
    expect(text.toLowerCase()).not.toMatch(/<html|<!doctype|<\/|\{"|undefined|null|\[object/);
    expect(leaksIn(text, CREDS)).toEqual([]);
    if (cell.fault === '429') expect(text).toContain(`${RETRY_AFTER_S} seconds`);

    // The log has the failure with its code, and no credential anywhere.
    const failed = run.log.filter((l) => l.msg === 'command.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      service,
      operation: cell.upstream.operation,
      userId: '200000000000000001',
    });
    expect(EXPECTED_CODES[cell.fault]).toContain(failed[0]!.code);
    // The size bound itself refused the padded but otherwise valid answer.
    if (cell.fault === 'oversize') expect(JSON.stringify(failed[0]!.err)).toMatch(/larger than \d+/);
    expect(leaksIn(run.rawLog, CREDS)).toEqual([]);

    // The process survived: nothing rejected unhandled during the cell.
    expect(unhandled - before).toBe(0);
  });
});

describe('the process after the whole matrix', () => {
  it('saw no unhandled rejection at all', async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toBe(0);
  });

  it(`ran ${CELLS.length} cells`, () => {
    // 11 commands making 12 upstream calls (/say makes two), × 10 faults.
    expect(CELLS.length).toBe(120);
  });
});
