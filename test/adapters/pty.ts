// herald under a real pseudo-terminal: `script` (util-linux) runs `src/main.ts` on a PTY, so stdin,
// stdout and stderr are terminals exactly as in `npm start` at a shell prompt (no native addon).
// What the terminal shows is rebuilt from the byte stream by a small screen model that follows the
// cursor controls readline and the console use (CR, LF, ESC[nG, ESC[K, ESC[2K, ESC[J).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { inheritedEnv, ROOT } from '../support/spawn-herald.ts';

export interface PtyHerald {
  /** Everything written to the terminal so far, raw. */
  raw(): string;
  /** The terminal's lines as a person sees them. */
  screen(): string[];
  /** Sends keys, as typed (one write: readline treats a burst as pasted text). */
  type(keys: string): void;
  /** Resolves once the screen matches `pattern`; fails with the screen after `timeoutMs`. */
  until(pattern: RegExp, timeoutMs?: number): Promise<string[]>;
  /** The exit code of herald (script -e passes it on). */
  exited: Promise<number | null>;
  kill(): void;
}

// eslint-disable-next-line no-control-regex
const CSI_RE = /^\u001b\[([0-9;?]*)([A-Za-z])/;

/** The visible lines of a terminal after `raw` was written to it (colours ignored). */
export function screenOf(raw: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  const put = (ch: string): void => {
    const line = lines[row]!.padEnd(col, ' ');
    lines[row] = line.slice(0, col) + ch + line.slice(col + 1);
    col += 1;
  };
  for (let i = 0; i < raw.length; i += 1) {
    const ch = raw[i]!;
    if (ch === '\u001b') {
      const m = CSI_RE.exec(raw.slice(i));
      if (!m) continue;
      i += m[0].length - 1;
      const [, arg = '', op] = m;
      if (op === 'G') col = Math.max(0, Number(arg || '1') - 1);
      else if (op === 'K' || op === 'J') {
        if (arg === '2') lines[row] = '';
        else lines[row] = lines[row]!.slice(0, col);
        if (op === 'J') lines.length = row + 1;
      }
      continue;
    }
    if (ch === '\r') col = 0;
    else if (ch === '\n') {
      row += 1;
      lines[row] ??= '';
    } else if (ch >= ' ' || ch === '\t') put(ch);
  }
  return lines.map((l) => l.trimEnd());
}

/** Starts herald on a 200×50 PTY in `cwd` with `env` over the parent's (service variables dropped). */
export function startInPty(cwd: string, env: Record<string, string>): PtyHerald {
  const command = `stty cols 200 rows 50; exec '${process.execPath}' '${join(ROOT, 'src/main.ts')}'`;
  const child: ChildProcessWithoutNullStreams = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd,
    env: { ...inheritedEnv({ dropServiceVars: true }), TERM: 'xterm', ...env },
  });
  let raw = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (c: Buffer) => {
    raw += c.toString('utf8');
    for (const wake of waiters) wake();
  });
  child.stderr.on('data', (c: Buffer) => (raw += c.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return {
    raw: () => raw,
    screen: () => screenOf(raw),
    type: (keys) => void child.stdin.write(keys),
    until(pattern, timeoutMs = 15_000) {
      return new Promise((done, fail) => {
        const check = (): void => {
          const screen = screenOf(raw);
          if (!pattern.test(screen.join('\n'))) return;
          clearTimeout(timer);
          waiters.delete(check);
          done(screen);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`the terminal never showed ${String(pattern)}:\n${screenOf(raw).join('\n')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    exited,
    kill: () => void child.kill('SIGKILL'),
  };
}
