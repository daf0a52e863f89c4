// The interactions bench's report: each scenario against herald and its floor, herald ÷ floor, the
// target (set against the floor measured in the same run, so that it is met or not on this
// machine's own floor) and whether herald meets it; then the CPU split, and the absolute bounds
// of an earlier issue beside the floor's own result.
import { availableParallelism, loadavg } from 'node:os';
import { percentile } from './stats.ts';

export const CONCURRENCY = 200;
/** herald's latency (p99) and a bad signature's CPU at most this times the floor's (issue 29). */
const LATENCY_RATIO = 1.3;
/** herald's server CPU per command at most this times the floor's. */
const CPU_RATIO = 1.5;

export interface Measured {
  ms: number[];
  errors: number;
  /** µs of CPU per request, in the server and in the bench client. */
  serverUs: number;
  clientUs: number;
  loopDelayP99Ms: number;
  parsed: number;
}

export interface Scenarios {
  ping: Measured;
  defer: Measured;
  bad: Measured;
  /** Edits of @original sent for the measured commands within 30 s. */
  edits: number;
}

export interface Cold {
  /** From spawning to the first PONG. */
  ms: number;
  /** The main thread's CPU until then: the same figure on a loaded machine. */
  cpuMs: number;
  /** The slowest PING sent one at a time in the 1.5 s after the first PONG (the rest of start-up). */
  laterMaxMs: number;
}

export function report(r: {
  h: Scenarios;
  f: Scenarios;
  heraldCold: Cold;
  floorCold: Cold;
  pings: number;
  commands: number;
}): string {
  const { h, f } = r;
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const p = (m: Measured, q: number) => percentile(m.ms, q);
  const lat = (m: Measured) => `p50 ${ms(p(m, 50))}, p99 ${ms(p(m, 99))}, ${m.errors} errors`;
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const yes = (ok: boolean) => (ok ? 'yes' : 'NO');
  const rows = [
    {
      scenario: `signed PING → PONG, ${CONCURRENCY} concurrent (${r.pings})`,
      herald: lat(h.ping),
      floor: lat(f.ping),
      ratio: `p99 ${ratio(p(h.ping, 99), p(f.ping, 99))}`,
      target: `p99 ≤ ${LATENCY_RATIO}× the floor's; 0 errors`,
      met: yes(p(h.ping, 99) <= LATENCY_RATIO * p(f.ping, 99) && h.ping.errors === 0),
    },
    {
      scenario: `signed /weather → deferral, ${CONCURRENCY} concurrent (${r.commands})`,
      herald: `${lat(h.defer)}; edits ${h.edits}/${r.commands}`,
      floor: `${lat(f.defer)}; edits ${f.edits}/${r.commands}`,
      ratio: `p99 ${ratio(p(h.defer, 99), p(f.defer, 99))}`,
      target: `p99 ≤ ${LATENCY_RATIO}× the floor's; every edit sent`,
      met: yes(
        p(h.defer, 99) <= LATENCY_RATIO * p(f.defer, 99) && h.defer.errors === 0 && h.edits >= r.commands,
      ),
    },
    {
      scenario: 'server CPU per /weather command, its edit of @original included',
      herald: `${h.defer.serverUs.toFixed(0)} µs`,
      floor: `${f.defer.serverUs.toFixed(0)} µs`,
      ratio: ratio(h.defer.serverUs, f.defer.serverUs),
      target: `≤ ${CPU_RATIO}× the floor's`,
      met: yes(h.defer.serverUs <= CPU_RATIO * f.defer.serverUs),
    },
    {
      scenario: 'cold start: process start → first PONG (median)',
      herald: `${ms(r.heraldCold.ms)}, main thread ${ms(r.heraldCold.cpuMs)} CPU (npm start's entry); PINGs in the next 1.5 s ≤ ${ms(r.heraldCold.laterMaxMs)}`,
      floor: `${ms(r.floorCold.ms)}, main thread ${ms(r.floorCold.cpuMs)} CPU; next PINGs ≤ ${ms(r.floorCold.laterMaxMs)}`,
      ratio: `${ratio(r.heraldCold.ms, r.floorCold.ms)}; CPU ${ratio(r.heraldCold.cpuMs, r.floorCold.cpuMs)}`,
      target: '≤ 500 ms',
      met: yes(r.heraldCold.ms <= 500),
    },
    {
      scenario: `bad signatures (${h.bad.ms.length})`,
      herald: `${h.bad.ms.length - h.bad.errors} × 401, ${h.bad.serverUs.toFixed(1)} µs CPU each, ${h.bad.parsed} parsed`,
      floor: `${f.bad.ms.length - f.bad.errors} × 401, ${f.bad.serverUs.toFixed(1)} µs CPU each`,
      ratio: `CPU ${ratio(h.bad.serverUs, f.bad.serverUs)}`,
      target: `all 401, nothing parsed, CPU ≤ ${LATENCY_RATIO}× the floor's`,
      met: yes(h.bad.errors === 0 && h.bad.parsed === 0 && h.bad.serverUs <= LATENCY_RATIO * f.bad.serverUs),
    },
  ];
  // The absolute bounds set before the floor was measured: shown with the floor's own result, since
  // a bound the bare floor misses on this machine measures the machine, not herald.
  const absolute = [
    { scenario: 'PING p99 ≤ 20 ms', h: p(h.ping, 99) <= 20, f: p(f.ping, 99) <= 20 },
    { scenario: 'deferral p99 ≤ 50 ms', h: p(h.defer, 99) <= 50, f: p(f.defer, 99) <= 50 },
    { scenario: 'bad signature ≤ 60 µs CPU', h: h.bad.serverUs <= 60, f: f.bad.serverUs <= 60 },
  ].map((a) => ({ scenario: a.scenario, herald: yes(a.h), floor: yes(a.f) }));
  const cpuRows = (['ping', 'defer', 'bad'] as const).map((k) => ({
    scenario: { ping: 'PING', defer: '/weather deferral', bad: 'bad signature' }[k],
    herald: `${h[k].serverUs.toFixed(0)} µs`,
    floor: `${f[k].serverUs.toFixed(0)} µs`,
    ratio: ratio(h[k].serverUs, f[k].serverUs),
    client: `${h[k].clientUs.toFixed(0)} µs / ${f[k].clientUs.toFixed(0)} µs`,
    delay: `${ms(h[k].loopDelayP99Ms)} / ${ms(f[k].loopDelayP99Ms)}`,
  }));
  return [
    `Discord HTTP interactions, one replica on loopback (node ${process.version}, load ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores)`,
    table(rows, {
      scenario: 'scenario',
      herald: 'herald',
      floor: 'floor (bare node:http + Ed25519 + undici edit)',
      ratio: 'herald ÷ floor',
      target: 'target (against the floor of this run)',
      met: 'met',
    }),
    '',
    'CPU per request (the edits of @original included in the /weather row) and event-loop delay',
    table(cpuRows, {
      scenario: 'scenario',
      herald: 'server CPU herald',
      floor: 'floor',
      ratio: 'herald ÷ floor',
      client: 'client CPU (herald run / floor run)',
      delay: 'server loop delay p99 (herald / floor)',
    }),
    '',
    'Absolute bounds of an earlier issue, beside the floor (not targets where the floor misses them)',
    table(absolute, { scenario: 'bound', herald: 'herald meets', floor: 'floor meets' }),
    '',
  ].join('\n');
}

function table<K extends string>(rows: Record<K, string>[], heads: Record<K, string>): string {
  const keys = Object.keys(heads) as K[];
  const widths = keys.map((k) => Math.max(heads[k].length, ...rows.map((r) => r[k].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  return [
    line(keys.map((k) => heads[k])),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...rows.map((r) => line(keys.map((k) => r[k]))),
  ].join('\n');
}
