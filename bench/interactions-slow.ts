// The slow-connection attack on the interactions endpoint: 2,000 connections held open on
// loopback, each sending as little as keeps it open and as much as the server would hold for it,
// reopened a moment after the server closes them, while a signed /weather command is
// sent every 250 ms. Reports the server's resident memory (before, and its peak while they are
// held) and each command's time to its deferral. Bounded in count (SLOW_CONNECTIONS) and in time
// (HOLD_MS).
import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { MAX_HEADER_BYTES } from '../src/health.ts';
import { LARGE_BODY_BUDGET_BYTES, SMALL_BODY_BYTES } from '../src/request-body.ts';
import { percentile } from './stats.ts';

export const SLOW_CONNECTIONS = 2_000;
const HOLD_MS = 12_000;
const COMMAND_EVERY_MS = 250;
const RSS_EVERY_MS = 100;
/**
 * How soon a connection the server closed is opened again. Reopening at once, 2,000 times over,
 * is a flood of new connections rather than connections held, which a rate limit in front of
 * herald answers.
 */
const REOPEN_MS = 250;
/** Connections sending a large body: twice what the server's budget for them holds at once. */
const LARGE_BODIES = Math.ceil((2 * LARGE_BODY_BUDGET_BYTES) / (256 * 1024));
/** Megabytes as the targets count them (the memory limit is in MiB). */
const MB = 1_000_000;
const MIB = 1024 * 1024;

export interface SlowRun {
  connections: number;
  /** The fewest attack connections open at once after the first second (what was really held). */
  heldMin: number;
  reopened: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  commandMs: number[];
  commandErrors: number;
}

interface Signed {
  body: string;
  headers: Record<string, string>;
}

/**
 * The three ways a connection holds the server: headers never finished (almost 8 KiB of them);
 * well-formed signature headers and a small body stopped one byte short; a body of 200 kB of a
 * declared 256 KiB, stopped there. A signature only has to look right for the body to be read.
 */
function attackBytes(kind: number, path: string): string {
  const sig = 'ab'.repeat(64);
  const ts = String(Math.floor(Date.now() / 1000));
  const head = (length: number) =>
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
    `x-signature-ed25519: ${sig}\r\nx-signature-timestamp: ${ts}\r\ncontent-length: ${length}\r\n\r\n`;
  // Just under the headers the server takes (src/health.ts), never ended.
  if (kind === 0)
    return `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-filler: ${'x'.repeat(MAX_HEADER_BYTES - 200)}\r\n`;
  // Just under what the server reads without its budget (src/request-body.ts): the most it holds.
  if (kind === 1) return head(SMALL_BODY_BYTES) + 'x'.repeat(SMALL_BODY_BYTES - 1);
  return head(256 * 1024) + 'x'.repeat(200_000);
}

function holder(port: number, path: string, count: number) {
  const open = new Set<Socket>();
  let reopened = 0;
  let isStopped = false;
  const start = (kind: number) => {
    if (isStopped) return;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.once('connect', () => {
      open.add(socket);
      socket.write(attackBytes(kind, path));
    });
    socket.once('close', () => {
      open.delete(socket);
      if (isStopped) return;
      reopened += 1;
      // The attacker comes back, as long as the bench runs.
      setTimeout(() => start(kind), REOPEN_MS);
    });
  };
  // Twice as many large bodies as the budget takes; the rest split between the other two.
  for (let i = 0; i < count; i++) start(i < LARGE_BODIES ? 2 : i % 2);
  return {
    held: () => open.size,
    reopened: () => reopened,
    stop() {
      isStopped = true;
      for (const socket of open) socket.destroy();
    },
  };
}

export async function slowConnections(opts: {
  url: string;
  /** The server's resident memory, asked over IPC. */
  rss: () => Promise<number>;
  /** A signed /weather command, signed just before it is sent. */
  command: (i: number) => Signed;
}): Promise<SlowRun> {
  const { port, pathname } = new URL(opts.url);
  const rssBefore = await opts.rss();
  const attack = holder(Number(port), pathname, SLOW_CONNECTIONS);
  const started = performance.now();
  let peak = rssBefore;
  let heldMin = Number.POSITIVE_INFINITY;
  const sampling = setInterval(() => {
    void opts.rss().then((rss) => (peak = Math.max(peak, rss)));
    if (performance.now() - started > 1_000) heldMin = Math.min(heldMin, attack.held());
  }, RSS_EVERY_MS);
  const commandMs: number[] = [];
  let commandErrors = 0;
  for (let i = 0; performance.now() - started < HOLD_MS; i++) {
    await new Promise((resolve) => setTimeout(resolve, COMMAND_EVERY_MS));
    const { body, headers } = opts.command(i);
    const t = performance.now();
    try {
      const res = await request(opts.url, { method: 'POST', body, headers, reset: true });
      await res.body.dump();
      if (res.statusCode !== 200) commandErrors += 1;
    } catch {
      commandErrors += 1;
    }
    commandMs.push(performance.now() - t);
  }
  clearInterval(sampling);
  const reopened = attack.reopened();
  attack.stop();
  return {
    connections: SLOW_CONNECTIONS,
    heldMin: Number.isFinite(heldMin) ? heldMin : 0,
    reopened,
    rssBeforeMb: rssBefore / MB,
    rssPeakMb: peak / MB,
    commandMs,
    commandErrors,
  };
}

/** The deploy kit's memory limit (deploy/kubernetes/herald.yaml). */
const DEPLOY_LIMIT_MIB = 384;

export function slowReport(run: SlowRun): string {
  const growth = run.rssPeakMb - run.rssBeforeMb;
  const peakMib = (run.rssPeakMb * MB) / MIB;
  const p99 = percentile(run.commandMs, 99);
  const max = Math.max(...run.commandMs);
  const yes = (ok: boolean) => (ok ? 'yes' : 'NO');
  const held = `${run.connections.toLocaleString('en-GB')} held (at least ${run.heldMin.toLocaleString('en-GB')} open at once, ${run.reopened.toLocaleString('en-GB')} reopened)`;
  const rows = [
    ['scenario', 'herald', 'target', 'met'],
    [
      `RSS, ${held}`,
      `${run.rssBeforeMb.toFixed(0)} → peak ${run.rssPeakMb.toFixed(0)} MB (+${growth.toFixed(0)} MB; ${peakMib.toFixed(0)} MiB)`,
      `growth ≤ 50 MB, peak ≤ ${DEPLOY_LIMIT_MIB} MiB`,
      yes(growth <= 50 && peakMib <= DEPLOY_LIMIT_MIB),
    ],
    [
      `signed \`/weather\` → deferral meanwhile (${run.commandMs.length}, one every ${COMMAND_EVERY_MS} ms)`,
      `p50 ${percentile(run.commandMs, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms, ${run.commandErrors} errors`,
      'every one ≤ 3,000 ms, 0 errors',
      yes(max <= 3_000 && run.commandErrors === 0),
    ],
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  return [
    '',
    'Slow connections on the interactions port:',
    '',
    line(rows[0]!),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.slice(1).map(line),
    '',
  ].join('\n');
}
