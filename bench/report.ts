// The benchmark's printed tables and its target check (issue 7's targets), from one run's results.
import { renderCharts, type ChartBench } from './charts.ts';
import type { IdenticalResult, LevelResult } from './commands.ts';
import type { RawResult } from './raw-clients.ts';
import type { StartupResult } from './startup.ts';
import { round } from './stats.ts';

export interface Machine {
  date: string;
  cores: number;
  cpu: string;
  memoryGb: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started and when it ended (other work on the machine). */
  loadBefore: number;
  loadAfter: number;
}

export interface Results {
  machine: Machine;
  upstreamLatencyMs: number;
  levels: LevelResult[];
  identical: IdenticalResult;
  raw: RawResult[];
  startup: StartupResult[];
  charts?: ChartBench;
  targets: TargetCheck[];
  durationS: number;
}

export interface TargetCheck {
  target: string;
  limit: string;
  measured: string;
  isMet: boolean;
}

const n = (v: number | undefined): string =>
  v === undefined || !Number.isFinite(v) ? '-' : String(round(v));

/** Left-aligns the first column and right-aligns the others. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function checkTargets(
  levels: readonly LevelResult[],
  identical: IdenticalResult,
  raw: readonly RawResult[],
  startup: readonly StartupResult[],
): TargetCheck[] {
  const at = (c: number) => levels.find((l) => l.concurrency === c);
  const checks: TargetCheck[] = [];
  const add = (target: string, limit: string, value: number | undefined, isMet: (v: number) => boolean) =>
    checks.push({ target, limit, measured: n(value), isMet: value !== undefined && isMet(value) });
  const l200 = at(200);
  const l1000 = at(1000);
  add('added latency p50 at 200 concurrent (ms)', '<= 1', l200?.addedMs.p50, (v) => v <= 1);
  add('added latency p99 at 200 concurrent (ms)', '<= 5', l200?.addedMs.p99, (v) => v <= 5);
  add(
    'unanswered or failed of 1000 concurrent',
    '= 0',
    l1000 && l1000.commands - l1000.answered + l1000.failed,
    (v) => v === 0,
  );
  add('added latency p99 at 1000 concurrent (ms)', '<= 20', l1000?.addedMs.p99, (v) => v <= 20);
  add('peak RSS at 1000 concurrent (MB)', '<= 200', l1000?.peakRssMb, (v) => v <= 200);
  add('upstream requests for 100 identical /weather', '= 1', identical.upstreamRequests, (v) => v === 1);
  add('cached repeat /weather, p99 (ms)', '<= 1', identical.cachedMs.p99, (v) => v <= 1);
  // Requests, not calls: speech.voices shares concurrent calls, so its calls/s is not a request rate.
  const gets = raw.filter((x) => x.method === 'GET' && x.failed === 0 && x.upstreamRequests === x.calls);
  const best = gets.reduce<RawResult | undefined>(
    (a, b) => (a && a.callsPerSecond >= b.callsPerSecond ? a : b),
    undefined,
  );
  add(
    `raw GET client, one pool (req/s) [best: ${best?.operation ?? '-'}]`,
    '>= 5000',
    best?.callsPerSecond,
    (v) => v >= 5_000,
  );
  const direct = startup[0];
  add(
    `start to console ready, median (ms) [${direct?.how ?? '-'}]`,
    '<= 500',
    direct?.readyMs.median,
    (v) => v <= 500,
  );
  add('idle RSS (MB)', '<= 90', direct?.idleRssMb, (v) => v <= 90);
  return checks;
}

export function renderReport(r: Results): string {
  const m = r.machine;
  const out: string[] = [
    `herald benchmark · ${m.date} · ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB · Node ${m.node} · ${m.platform}`,
    `load average (1 min) ${n(m.loadBefore)} at the start, ${n(m.loadAfter)} at the end`,
    '',
    `Commands through the dispatcher: distinct /weather cities (no cache hits), sandbox upstream latency ${r.upstreamLatencyMs} ms`,
    table(
      [
        'concurrency',
        'commands',
        'cmd/s',
        'e2e p50',
        'e2e p95',
        'e2e p99',
        'added p50',
        'added p95',
        'added p99',
        'added p99 low',
        'upstream req',
        'bot CPU µs/cmd',
        'peak RSS MB',
      ],
      r.levels.map((l) => [
        String(l.concurrency),
        `${l.answered}${l.failed > 0 ? ` (${l.failed} failed)` : ''}`,
        n(l.commandsPerSecond),
        n(l.endToEndMs.p50),
        n(l.endToEndMs.p95),
        n(l.endToEndMs.p99),
        n(l.addedMs.p50),
        n(l.addedMs.p95),
        n(l.addedMs.p99),
        n(l.addedLowMs.p99),
        String(l.upstreamRequests),
        // Mostly idle at concurrency 1: tick-sampled CPU time says little there (JSON keeps it).
        l.concurrency === 1 ? '-' : n(l.botCpuUsPerCommand),
        n(l.peakRssMb),
      ]),
    ),
    '',
    'Identical commands and the cache',
    table(
      ['case', 'commands', 'upstream req', 'p50 ms', 'p99 ms', 'max ms'],
      [
        [
          '100 concurrent identical /weather',
          String(r.identical.commands),
          String(r.identical.upstreamRequests),
          n(r.identical.endToEndMs.p50),
          n(r.identical.endToEndMs.p99),
          n(r.identical.endToEndMs.max),
        ],
        [
          'cached repeat /weather (sequential)',
          String(r.identical.cachedRepeats),
          String(r.identical.cachedUpstreamRequests),
          n(r.identical.cachedMs.p50),
          n(r.identical.cachedMs.p99),
          n(r.identical.cachedMs.max),
        ],
      ],
    ),
    '',
    'Each service client alone, raw, against the sandbox with no injected latency',
    table(
      [
        'client.operation',
        'method',
        'calls',
        'calls/s',
        'upstream req',
        'p50 ms',
        'p99 ms',
        'failed',
        'client CPU µs/call',
        'sandbox CPU µs/req',
      ],
      r.raw.map((x) => [
        x.operation,
        x.method,
        String(x.calls),
        n(x.callsPerSecond),
        String(x.upstreamRequests),
        n(x.latencyMs.p50),
        n(x.latencyMs.p99),
        String(x.failed),
        n(x.clientCpuUsPerCall),
        n(x.sandboxCpuUsPerRequest),
      ]),
    ),
    '',
    'Start-up (SANDBOX=on, no other configuration, stdin piped)',
    table(
      ['how', 'runs', 'ready min ms', 'ready median ms', 'ready max ms', 'idle RSS MB', 'of it file-backed'],
      r.startup.map((s) => [
        s.how,
        String(s.runs),
        n(s.readyMs.min),
        n(s.readyMs.median),
        n(s.readyMs.max),
        n(s.idleRssMb),
        n(s.idleFileMb),
      ]),
    ),
    ...r.startup.flatMap((s) => (s.error ? [`${s.how} did not start: ${s.error.split('\n')[0]}`] : [])),
    '',
    ...(r.charts ? [renderCharts(r.charts), ''] : []),
    'Targets (issue 7)',
    table(
      ['target', 'limit', 'measured', 'met'],
      r.targets.map((t) => [t.target, t.limit, t.measured, t.isMet ? 'yes' : 'NO']),
    ),
    '',
    'Notes',
    '- The sandbox runs in the bench process; the bot (real config defaults, services, registry,',
    '  dispatcher, /weather, info logging to /dev/null) runs in a child process, so its RSS and CPU',
    '  are its own. Both share this machine: see the load average above.',
    '- Each concurrency level fires that many distinct /weather commands at once through',
    '  dispatcher.onInvocation (a wave), waits for every answer, then fires the next wave.',
    '- e2e: from the call to onInvocation to the reply reaching respond(), in ms.',
    "- added = e2e minus the upstream's own time for that command, measured server-side in the sandbox",
    '  (node:http diagnostics channels, parsed request headers to last byte written, matched to the',
    '  command by its city). Loopback transit and any wait before the sandbox parses the request',
    "  count as herald's, so this is an upper bound.",
    '- added low = e2e minus the client-side wire time (undici diagnostics: request written to last',
    "  byte received), which counts any delay of the bot's own event loop as upstream: a lower bound.",
    '- One event loop serves a wave in turn, so the k-th command of a wave waits for the work of the',
    "  k-1 before it: added latency grows with the wave size times the bot's CPU per command.",
    "- CPU µs: process.threadCpuUsage of the bot's main thread per command, and of the sandbox's",
    '  thread per request. The kernel samples CPU time by ticks, so at concurrency 1 (mostly idle)',
    "  it is left out. Peak RSS is the bot process's VmHWM, reset before each level (memory the",
    '  process kept from earlier levels counts).',
    '- Raw clients: closed loop, 50 calls in flight, distinct inputs; calls/s is bounded by whichever',
    '  side saturates first (compare the two CPU columns).',
    `- Whole run: ${n(r.durationS)} s.`,
  ];
  return out.join('\n');
}
