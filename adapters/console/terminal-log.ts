// Log lines on the interactive console's terminal. pino writes each line here instead of to fd 2;
// while the console shows its prompt, a line is printed through the console's guard (clear the
// prompt line, print, redraw the prompt and what was typed), so logs never print over `herald> `.
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';

// Loaded only for a pretty terminal log: a piped or JSON console never holds it.
const loadPretty = (): typeof PinoPretty =>
  createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;

export interface TerminalLog {
  /** pino's destination: one JSON line per write. */
  readonly destination: { write(line: string): void };
  /** While set, every log line is printed inside `guard` (the console's prompt keeper). */
  setGuard(guard: ((print: () => void) => void) | undefined): void;
}

export interface TerminalLogOptions {
  stream: NodeJS.WritableStream;
  format: 'json' | 'pretty';
}

export function createTerminalLog({ stream, format }: TerminalLogOptions): TerminalLog {
  const prettify =
    format === 'pretty'
      ? loadPretty().prettyFactory({
          colorize: true,
          translateTime: 'HH:MM:ss.l',
          ignore: 'pid,hostname,app',
        })
      : undefined;
  let guard: ((print: () => void) => void) | undefined;
  return {
    destination: {
      write(line: string): void {
        const text = prettify ? prettify(line) : line;
        const print = (): void => void stream.write(text);
        if (guard) guard(print);
        else print();
      },
    },
    setGuard(next) {
      guard = next;
    },
  };
}

/** The terminal log for an interactive console (stdin, stdout and stderr all terminals), else undefined. */
export function openTerminalLog(format: 'json' | 'pretty'): TerminalLog | undefined {
  const isTerminal = process.stdin.isTTY && process.stdout.isTTY && process.stderr.isTTY;
  return isTerminal ? createTerminalLog({ stream: process.stderr, format }) : undefined;
}
