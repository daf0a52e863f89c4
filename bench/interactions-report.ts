// The interactions bench's report: each scenario against herald and its floor, herald ÷ floor,
// the absolute target, and whether herald and the floor meet it; then the CPU split.
import { availableParallelism, loadavg } from 'node:os';
import { percentile } from './stats.ts';

export const CONCURRENCY = 200;

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
  /** Edits of @original sent for the measured commands within 30 s (herald only). */
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
      target: 'p99 ≤ 20 ms; 0 errors',
      met: yes(p(h.ping, 99) <= 20 && h.ping.errors === 0),
      floorMet: yes(p(f.ping, 99) <= 20 && f.ping.errors === 0),
    },
    {
      scenario: `signed /weather → deferral, ${CONCURRENCY} concurrent (${r.commands})`,
      herald: `${lat(h.defer)}; edits ${h.edits}/${r.commands}`,
      floor: lat(f.defer),
      ratio: `p99 ${ratio(p(h.defer, 99), p(f.defer, 99))}`,
      target: 'deferral p99 ≤ 50 ms; every edit sent',
      met: yes(p(h.defer, 99) <= 50 && h.defer.errors === 0 && h.edits >= r.commands),
      floorMet: yes(p(f.defer, 99) <= 50 && f.defer.errors === 0),
    },
    {
      scenario: 'cold start: process start → first PONG (median)',
      herald: `${ms(r.heraldCold.ms)}, main thread ${ms(r.heraldCold.cpuMs)} CPU (npm start's entry); PINGs in the next 1.5 s ≤ ${ms(r.heraldCold.laterMaxMs)}`,
      floor: `${ms(r.floorCold.ms)}, main thread ${ms(r.floorCold.cpuMs)} CPU; next PINGs ≤ ${ms(r.floorCold.laterMaxMs)}`,
      ratio: `${ratio(r.heraldCold.ms, r.floorCold.ms)}; CPU ${ratio(r.heraldCold.cpuMs, r.floorCold.cpuMs)}`,
      target: '≤ 500 ms',
      met: yes(r.heraldCold.ms <= 500),
      floorMet: yes(r.floorCold.ms <= 500),
    },
    {
      scenario: `bad signatures (${h.bad.ms.length})`,
      herald: `${h.bad.ms.length - h.bad.errors} × 401, ${h.bad.serverUs.toFixed(1)} µs CPU each, ${h.bad.parsed} parsed`,
      floor: `${f.bad.ms.length - f.bad.errors} × 401, ${f.bad.serverUs.toFixed(1)} µs CPU each`,
      ratio: `CPU ${ratio(h.bad.serverUs, f.bad.serverUs)}`,
      target: 'all 401, ≤ 60 µs CPU each, nothing parsed',
      met: yes(h.bad.errors === 0 && h.bad.serverUs <= 60 && h.bad.parsed === 0),
      floorMet: yes(f.bad.errors === 0 && f.bad.serverUs <= 60),
    },
  ];
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
      floor: 'floor (bare node:http + Ed25519)',
      ratio: 'herald ÷ floor',
      target: 'target',
      met: 'met',
      floorMet: 'floor meets',
    }),
    '',
    'CPU per request (herald edits of @original included in its /weather row) and event-loop delay',
    table(cpuRows, {
      scenario: 'scenario',
      herald: 'server CPU herald',
      floor: 'floor',
      ratio: 'herald ÷ floor',
      client: 'client CPU (herald run / floor run)',
      delay: 'server loop delay p99 (herald / floor)',
    }),
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
