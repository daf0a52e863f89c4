// The console adapter, herald's default run mode (like hubot's Shell): one command per line.
// On a terminal it is interactive (prompt, history kept in a file, tab completion); with piped
// input it prints one reply block per command line, in input order, and `finished` resolves at end
// of input (or `exit`/`quit`) once every command has answered, with the session's exit code.
// stdout holds only replies; logs go elsewhere.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import { AdapterError } from '../../src/errors.ts';
import type { Actor } from '../../src/core/actor.ts';
import type { AdapterHandlers, ChatAdapter, CommandOutcome, Invocation } from '../../src/core/adapter.ts';
import { parseLine } from '../../src/core/args.ts';
import type { CommandLog } from '../../src/core/command.ts';
import type { Attachment, Reply } from '../../src/core/reply.ts';
import { visibleControls } from '../text-safety.ts';
import { completeLine } from './complete.ts';
import { createHistoryWriter, HISTORY_SIZE, readHistory } from './history.ts';
import { renderConsole } from './render.ts';
import type { TerminalLog } from './terminal-log.ts';

export interface ConsoleAdapterOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Where attachments (audio) are written. */
  audioDir: string;
  log: CommandLog;
  /** Interactive mode: prompt, history, colours, exit/quit. */
  isTTY: boolean;
  /** One line shown at start, e.g. that the sandbox answers (terminal: output; piped: the log). */
  notice?: string;
  /** Commands run at once from piped input; replies still come out in input order. */
  concurrency?: number;
  /** Ctrl-C on the prompt; defaults to raising SIGINT so that main shuts down as for a signal. */
  onInterrupt?: () => void;
  /** Interactive only: the file the history is read from and saved to (history.ts). */
  historyFile?: string;
  /** Interactive only: the log lines to keep off the prompt line (terminal-log.ts). */
  terminalLog?: TerminalLog;
}

/** Piped sessions: exit 1 when a command failed (service, timeout, internal error), else 3 when
 * one was refused by herald (a UserError: unknown command, invalid input, not configured), else 0. */
export const EXIT_FAILED = 1;
export const EXIT_REFUSED = 3;

export interface ConsoleSummary {
  /** 0, EXIT_FAILED or EXIT_REFUSED for piped input; always 0 for an interactive session. */
  exitCode: number;
}

export interface ConsoleAdapter extends ChatAdapter {
  /** Resolves once input has ended (EOF, exit or quit) and every command has answered. */
  readonly finished: Promise<ConsoleSummary>;
}

const OPERATOR: Actor = {
  platform: 'console',
  id: 'local',
  displayName: 'operator',
  roles: [],
  isOperator: true,
};
const PROMPT = 'herald> ';
/** Lines that end the session, as in Hubot's shell. */
const EXIT_RE = /^\/?(exit|quit)$/i;

/** A command line waiting for its reply block: blocks are printed in input order. */
interface PendingReply {
  line: string;
  block?: string;
}

function safeFileName(name: string): string {
  const base = basename(name)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '');
  return (base || 'attachment').slice(-80);
}

/** The exit code of a piped session from the outcomes of its commands. */
function exitCodeOf(outcomes: ReadonlySet<CommandOutcome>): number {
  if (outcomes.has('service_error') || outcomes.has('deadline') || outcomes.has('error')) return EXIT_FAILED;
  return outcomes.has('user_error') ? EXIT_REFUSED : 0;
}

export function createConsoleAdapter(opts: ConsoleAdapterOptions): ConsoleAdapter {
  const { output, isTTY, log } = opts;
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  const controller = new AbortController();
  const pending: PendingReply[] = [];
  const waiting: (() => Promise<void>)[] = [];
  const outcomes = new Set<CommandOutcome>();
  let running = 0;
  let isEnded = false;
  let isStarted = false;
  /** `exit` or `quit` ended it (the cursor is already on a fresh line). */
  let isEndedByLine = false;
  let rl: Interface | undefined;
  let lastWrite: Promise<void> = Promise.resolve();
  let resolveFinished: (summary: ConsoleSummary) => void = () => undefined;
  const finished = new Promise<ConsoleSummary>((r) => (resolveFinished = r));
  const history = isTTY && opts.historyFile ? opts.historyFile : undefined;
  const historyWriter = history
    ? createHistoryWriter(history, (err) => log.warn({ err, file: history }, 'console.history_not_saved'))
    : undefined;

  function write(text: string): void {
    lastWrite = new Promise<void>((done) => {
      output.write(text, () => done());
    });
  }

  /** On the terminal: clear the prompt line, print, then redraw the prompt and what was typed. */
  function printAbovePrompt(print: () => void): void {
    clearLine(output, 0);
    cursorTo(output, 0);
    print();
    if (!isEnded) rl?.prompt(true);
  }

  async function save(attachment: Attachment): Promise<string | undefined> {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    const path = resolve(
      opts.audioDir,
      `${stamp}-${randomBytes(3).toString('hex')}-${safeFileName(attachment.filename)}`,
    );
    try {
      await mkdir(opts.audioDir, { recursive: true });
      await writeFile(path, attachment.bytes, { flag: 'wx' });
      return path;
    } catch (cause) {
      const err = new AdapterError({
        platform: 'console',
        code: 'upload_failed',
        message: 'could not save an attachment',
        cause,
      });
      log.error({ err, dir: opts.audioDir }, 'console.save_failed');
      return undefined;
    }
  }

  async function render(reply: Reply): Promise<string> {
    const savedPaths = await Promise.all((reply.attachments ?? []).map(save));
    return renderConsole(reply, { savedPaths, isColor: isTTY });
  }

  function maybeFinish(): void {
    if (isEnded && pending.length === 0 && running === 0 && waiting.length === 0) {
      const summary = { exitCode: isTTY ? 0 : exitCodeOf(outcomes) };
      void Promise.all([lastWrite, historyWriter?.settled()]).then(() => resolveFinished(summary));
    }
  }

  /** Writes every answered block at the head of the queue, so output keeps input order. */
  function flush(): void {
    while (pending[0]?.block !== undefined) {
      const { line, block } = pending.shift()!;
      // What was typed is shown with its control characters as visible escapes.
      if (isTTY) printAbovePrompt(() => write(`${block}\n\n`));
      else write(`> ${visibleControls(line)}\n${block}\n\n`);
    }
    maybeFinish();
  }

  function pump(): void {
    while (running < concurrency && waiting.length > 0) {
      const task = waiting.shift()!;
      running += 1;
      void task().finally(() => {
        running -= 1;
        pump();
        flush();
      });
    }
  }

  function enqueue(line: string, handlers: AdapterHandlers): void {
    const parsed = parseLine(line);
    if (!parsed) return;
    const entry: PendingReply = { line };
    pending.push(entry);
    waiting.push(async () => {
      const invocation: Invocation = {
        command: parsed.name,
        rawInput: parsed.text,
        actor: OPERATOR,
        channelId: 'console',
        signal: controller.signal,
        respond: async (reply) => {
          if (entry.block === undefined) entry.block = await render(reply);
        },
      };
      try {
        outcomes.add((await handlers.onInvocation(invocation)) ?? 'ok');
      } catch (err) {
        outcomes.add('error');
        log.error({ err, command: parsed.name }, 'console.invocation_failed');
      }
      // The dispatcher always responds; this keeps the queue moving should it ever not.
      if (entry.block === undefined) {
        outcomes.add('error');
        entry.block = 'That command gave no answer.';
      }
    });
    pump();
  }

  function onLine(raw: string, handlers: AdapterHandlers): void {
    if (isEnded) return;
    const line = raw.trim();
    if (EXIT_RE.test(line)) {
      // Like Hubot's shell: the session ends here, piped or not; later lines are not run.
      isEnded = true;
      isEndedByLine = true;
      rl?.close();
      return;
    }
    if (line === '' || line.startsWith('#')) {
      if (isTTY) rl?.prompt();
      return;
    }
    enqueue(line, handlers);
  }

  function startTerminal(interface_: Interface): void {
    interface_.on('SIGINT', opts.onInterrupt ?? (() => process.kill(process.pid, 'SIGINT')));
    if (historyWriter) interface_.on('history', (lines: string[]) => void historyWriter.save(lines));
    opts.terminalLog?.setGuard(printAbovePrompt);
    if (opts.notice) write(`${opts.notice}\n`);
    write('Type /help for the commands, exit to quit.\n');
    interface_.setPrompt(PROMPT);
    interface_.prompt();
  }

  return {
    platform: 'console',
    finished,
    isReady: () => isStarted && !isEnded,
    start(registry, handlers) {
      const interface_ = createInterface({
        input: opts.input,
        output: isTTY ? output : undefined,
        terminal: isTTY,
        historySize: HISTORY_SIZE,
        history: history ? readHistory(history) : [],
        removeHistoryDuplicates: true,
        completer: isTTY ? (line: string) => completeLine(registry, line) : undefined,
      });
      rl = interface_;
      interface_.on('line', (raw: string) => onLine(raw, handlers));
      interface_.on('close', () => {
        opts.terminalLog?.setGuard(undefined);
        // Ctrl-D, Ctrl-C or a stop leave the cursor after `herald> `: the shell's prompt starts below.
        if (isTTY && !isEndedByLine) write('\n');
        isEnded = true;
        maybeFinish();
      });
      if (isTTY) startTerminal(interface_);
      else if (opts.notice) log.info({}, opts.notice);
      isStarted = true;
      return Promise.resolve();
    },
    stop() {
      rl?.close();
      isEnded = true;
      controller.abort(
        new AdapterError({ platform: 'console', code: 'expired', message: 'console stopped' }),
      );
      return lastWrite;
    },
  };
}
