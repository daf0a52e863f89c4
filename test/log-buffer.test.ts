// The production sink (issue 16): the once-per-command line is held back and written with the next
// line, at 4 KiB, every 100 ms, at flush and at exit; every other line is written at once, so that
// a closed stderr is met as soon as before (issue 14, point 7).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/log.ts';

let dir: string;
let file: string;
const lines = () =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { msg: string; level: number });

beforeEach(() => {
  vi.useFakeTimers();
  dir = mkdtempSync(join(tmpdir(), 'herald-log-'));
  file = join(dir, 'log.jsonl');
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

const record = { command: 'weather', durationMs: 12, outcome: 'ok' };

describe('the buffered log sink', () => {
  it('holds back the per-command line and writes it, in order, with the next line', () => {
    const log = createLogger({ level: 'info', file });
    log.info(record, 'command.finished');
    log.info({ ...record, code: 'bad_input' }, 'command.failed');
    expect(lines()).toEqual([]);
    log.info('herald stopping');
    expect(lines().map((l) => l.msg)).toEqual(['command.finished', 'command.failed', 'herald stopping']);
  });

  it('writes a failed command at warn at once, and other lines at once', () => {
    const log = createLogger({ level: 'info', file });
    log.warn({ ...record, code: 'upstream' }, 'command.failed');
    expect(lines().map((l) => l.msg)).toEqual(['command.failed']);
    log.info({ port: 1 }, 'herald started');
    expect(lines()).toHaveLength(2);
  });

  it('writes held-back lines within 100 ms, at 4 KiB, and on flush', () => {
    const log = createLogger({ level: 'info', file });
    log.info(record, 'command.finished');
    vi.advanceTimersByTime(99);
    expect(lines()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(lines()).toHaveLength(1);

    const before = lines().length;
    let held = 0;
    while (lines().length === before) {
      log.info(record, 'command.finished');
      held++;
    }
    expect(held).toBeGreaterThan(10); // gathered, then written together
    expect(lines()).toHaveLength(before + held);

    log.info(record, 'command.finished');
    log.flush();
    expect(lines()).toHaveLength(before + held + 1);
  });

  it('redacts held-back lines like any other', () => {
    const log = createLogger({ level: 'info', file });
    log.info({ ...record, headers: { authorization: 'Bearer abc' } }, 'command.finished');
    log.flush();
    expect(readFileSync(file, 'utf8')).not.toContain('Bearer abc');
  });
});
