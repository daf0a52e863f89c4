// The whole bot on the built-in sandbox, fed a piped console session as a new user would type it:
// cities beyond Latin-1 answer with weather (ten of them open no breaker), and replies that a
// reader sees in the console read alike.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHerald, type Run } from '../support/spawn-herald.ts';

const NON_LATIN = Array.from({ length: 5 }, () => ['/weather 東京', '/forecast Tōkyō']).flat();
const SESSION = [
  ...NON_LATIN,
  '/weather London',
  '/say hello world',
  '/host ::1',
  '/jobs rust where:"United Kingdom"',
  '/weather sandbox-busy',
  '/weather --help',
];

let dir: string;
let run: Run;
let blocks: Map<string, string[]>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-'));
  run = await runHerald(
    {
      SANDBOX: 'on',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      AUDIO_DIR: join(dir, 'audio'),
      STORE_URL: join(dir, 'herald.sqlite'),
    },
    `${SESSION.join('\n')}\n`,
    { dropServiceVars: true },
  );
  blocks = new Map();
  for (const block of run.stdout.trimEnd().split(/\n\n(?=> \/)/)) {
    const [echo = '', ...reply] = block.split('\n');
    const line = echo.replace(/^> /, '');
    blocks.set(line, [...(blocks.get(line) ?? []), reply.join('\n')]);
  }
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const replyTo = (line: string): string => blocks.get(line)?.[0] ?? '';

describe('cities beyond Latin-1', () => {
  it('answers /weather 東京 and /forecast Tōkyō with Tokyo’s weather, every time', () => {
    expect(blocks.get('/weather 東京'), run.stdout).toHaveLength(5);
    expect(blocks.get('/forecast Tōkyō')).toHaveLength(5);
    for (const reply of blocks.get('/weather 東京')!) expect(reply).toMatch(/Weather in Tokyo, JP/);
    for (const reply of blocks.get('/forecast Tōkyō')!) expect(reply).toMatch(/5-day forecast for Tokyo, JP/);
  });

  it('reports no fault of the weather service and opens no circuit breaker', () => {
    expect(run.stdout).not.toMatch(/having trouble|try again in a moment.*\n[\s\S]*Tokyo/);
    const log = run.stderr
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { msg: string; service?: string; outcome?: string });
    const weather = log.filter((l) => l.msg === 'command.finished' || l.msg === 'command.failed');
    expect(weather.filter((l) => l.outcome === 'service_error' && l.service === 'weather')).toHaveLength(1);
    expect(log.filter((l) => /breaker|circuit/i.test(l.msg))).toEqual([]);
    // After the ten, the weather service still answers.
    expect(replyTo('/weather London')).toMatch(/Weather in London, GB/);
  });
});

describe('replies read alike', () => {
  it('shows a reply’s card without repeating its one-line summary above it', () => {
    const reply = replyTo('/weather London');
    expect(reply.split('\n').every((line) => line.startsWith('│'))).toBe(true);
    expect(reply).not.toMatch(/^London, GB:/m);
  });

  it('writes a date once per footer, in the one date format', () => {
    const footer = replyTo('/weather London').split('\n').at(-1)!;
    expect(footer).toMatch(
      /^│ Observed (just now|\d+ minutes? ago) · Units: metric \(°C, m\/s\) · \w{3}, \d{1,2} Nov 2026, \d\d:\d\d UTC$/,
    );
    expect(footer.match(/2026/g)).toHaveLength(1);
  });

  it('writes measured values with their decimal, whole or not', () => {
    const reply = replyTo('/weather London');
    for (const name of ['Temperature', 'Feels like'])
      expect(reply).toMatch(new RegExp(`${name} +-?\\d+\\.\\d °C`));
    expect(reply).toMatch(/Wind +\d+\.\d m\/s/);
  });

  it('gives the audio’s size in one unit in the reply and the saved-file line, and names the default voice', () => {
    const reply = replyTo('/say hello world');
    const sizes = reply.match(/\d+(\.\d)? ?[KMk]i?B\b/g) ?? [];
    expect(sizes).toHaveLength(2);
    expect(sizes[0]).toMatch(/^\d+\.\d KiB$/);
    expect(sizes[1]).toBe(sizes[0]);
    expect(reply).toMatch(/^│ 🔊 Rachel$/m);
    expect(reply).not.toMatch(/Default voice/);
  });

  it('names ::1 as the loopback address without repeating it', () => {
    const reply = replyTo('/host ::1');
    expect(reply).toMatch(/It is the loopback address/);
    expect(reply).not.toMatch(/\(::1\)/);
  });

  it('does not name the country twice when the place is the country', () => {
    const reply = replyTo('/jobs rust where:"United Kingdom"');
    expect(reply).toMatch(/in United Kingdom\./);
    expect(reply).not.toMatch(/United Kingdom, United Kingdom/);
  });

  it('takes the README’s magic input without quotes, and answers --help like the provider: not found', () => {
    expect(replyTo('/weather sandbox-busy')).toMatch(/rate limiting herald/);
    expect(replyTo('/weather --help')).toMatch(/City not found/);
  });
});
