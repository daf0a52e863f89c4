// The console adapter, herald's default run mode (like hubot's Shell): one command per line.
// On a terminal it is interactive (prompt, history kept in a file, tab completion); with piped
// input it prints one reply block per command line, in input order, and `finished` resolves at end
// of input (or `exit`/`quit`) once every command has answered, with the session's exit code.
// stdout holds only replies; logs go elsewhere.
import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import { AdapterError } from '../../src/errors.ts';
import { loggedText } from '../../src/domain/text.ts';
import type { Actor } from '../../src/core/actor.ts';
import type {
  AdapterHandlers,
  ChatAdapter,
  CommandOutcome,
  CommandRegistry,
  Invocation,
} from '../../src/core/adapter.ts';
import { parseLine } from '../../src/core/args.ts';
import { resolveCommand } from '../../src/core/input/resolve.ts';
import type { CommandLog } from '../../src/core/command.ts';
import type { Reply } from '../../src/core/reply.ts';
import { visibleControls } from '../../src/render/text-safety.ts';
import { saveAttachment } from './attachments.ts';
import { completeLine } from './complete.ts';
import { createHistoryWriter, HISTORY_SIZE, readHistory } from './history.ts';
import { renderConsole } from './render.ts';
import { createReplyQueue, type PendingReply } from './reply-queue.ts';
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

/** The exit code of a piped session from the outcomes of its commands. */
function exitCodeOf(outcomes: ReadonlySet<CommandOutcome>): number {
  if (outcomes.has('service_error') || outcomes.has('deadline') || outcomes.has('error')) return EXIT_FAILED;
  return outcomes.has('user_error') ? EXIT_REFUSED : 0;
}

/** Runs one command line and fills its reply block; resolves with the command's outcome. */
async function runLine(
  opts: ConsoleAdapterOptions,
  handlers: AdapterHandlers,
  entry: PendingReply,
  signal: AbortSignal,
): Promise<CommandOutcome> {
  const parsed = parseLine(entry.line)!;
  const render = async (reply: Reply): Promise<string> => {
    const saved = (reply.attachments ?? []).map((file) => saveAttachment(opts.audioDir, file, opts.log));
    return renderConsole(reply, { savedPaths: await Promise.all(saved), isColor: opts.isTTY });
  };
  const invocation: Invocation = {
    command: parsed.name,
    rawInput: parsed.text,
    actor: OPERATOR,
    channelId: 'console',
    signal,
    respond: async (reply) => {
      if (entry.block === undefined) entry.block = await render(reply);
    },
  };
  let outcome: CommandOutcome;
  try {
    outcome = (await handlers.onInvocation(invocation)) ?? 'ok';
  } catch (err) {
    outcome = 'error';
    opts.log.error({ err, command: loggedText(parsed.name) }, 'console.invocation_failed');
  }
  // The dispatcher always responds; this keeps the queue moving should it ever not.
  if (entry.block !== undefined) return outcome;
  entry.block = 'That command gave no answer.';
  return 'error';
}

/** A readline interface: on a terminal with prompt, saved history and completion from `registry`. */
function openReadline(opts: ConsoleAdapterOptions, registry: CommandRegistry): Interface {
  const history = opts.isTTY && opts.historyFile ? readHistory(opts.historyFile) : [];
  return createInterface({
    input: opts.input,
    output: opts.isTTY ? opts.output : undefined,
    terminal: opts.isTTY,
    historySize: HISTORY_SIZE,
    history,
    removeHistoryDuplicates: true,
    completer: opts.isTTY ? (line: string) => completeLine(registry, line) : undefined,
  });
}

/** Writes to `output`; `written()` resolves once everything written so far is flushed. */
function createWriter(output: NodeJS.WritableStream) {
  let last: Promise<void> = Promise.resolve();
  return {
    write: (text: string): void => {
      last = new Promise<void>((done) => output.write(text, () => done()));
    },
    written: (): Promise<void> => last,
  };
}

/** The interactive start: Ctrl-C, history saving, logs kept off the prompt, the greeting, the prompt. */
function startTerminal(
  terminal: Interface,
  opts: ConsoleAdapterOptions,
  screen: {
    write: (text: string) => void;
    printAbovePrompt: (print: () => void) => void;
    history?: { save(newestFirst: readonly string[]): Promise<void> };
  },
): void {
  terminal.on('SIGINT', opts.onInterrupt ?? (() => process.kill(process.pid, 'SIGINT')));
  const { history } = screen;
  if (history) terminal.on('history', (lines: string[]) => void history.save(lines));
  opts.terminalLog?.setGuard(screen.printAbovePrompt);
  if (opts.notice) screen.write(`${opts.notice}\n`);
  screen.write('Type /help for the commands, exit to quit.\n');
  terminal.setPrompt(PROMPT);
  terminal.prompt();
}

/** Interactive sessions save their history when a file is given; piped ones never do. */
function historyWriterFor(opts: ConsoleAdapterOptions) {
  const file = opts.isTTY ? opts.historyFile : undefined;
  if (file === undefined) return undefined;
  return createHistoryWriter(file, (err) => opts.log.warn({ err, file }, 'console.history_not_saved'));
}

/** What a typed line is: the end of the session, a command to run, or nothing (blank, # comment). */
function lineKind(line: string): 'exit' | 'command' | 'none' {
  if (EXIT_RE.test(line)) return 'exit';
  return !line.startsWith('#') && parseLine(line) ? 'command' : 'none';
}

/** Whether the line's command changes what later lines read (its reply queue then runs it alone). */
function changesState(registry: CommandRegistry, line: string): boolean {
  const parsed = parseLine(line);
  if (!parsed) return false;
  try {
    return resolveCommand(registry, parsed.name, parsed.text).command.changesState;
  } catch {
    return false; // an unknown command is refused by the dispatcher; its order does not matter
  }
}

/** A piped session's transcript block: the line as typed (control characters as escapes), its reply. */
const transcript = (line: string, block: string) => `> ${visibleControls(line)}\n${block}\n\n`;

const stoppedError = () =>
  new AdapterError({ platform: 'console', code: 'expired', message: 'console stopped' });

/** On the terminal: clear the prompt line, print, then `redraw` the prompt and what was typed. */
function abovePrompt(output: NodeJS.WritableStream, redraw: () => void): (print: () => void) => void {
  return (print) => {
    clearLine(output, 0);
    cursorTo(output, 0);
    print();
    redraw();
  };
}

export function createConsoleAdapter(opts: ConsoleAdapterOptions): ConsoleAdapter {
  const { output, isTTY, log } = opts;
  const controller = new AbortController();
  const outcomes = new Set<CommandOutcome>();
  let isEnded = false;
  /** `exit` or `quit` ended it (the cursor is already on a fresh line). */
  let isEndedByLine = false;
  let isStarted = false;
  let rl: Interface | undefined;
  const { promise: finished, resolve: resolveFinished } = Promise.withResolvers<ConsoleSummary>();
  const history = historyWriterFor(opts);
  const { write, written } = createWriter(output);

  const printAbovePrompt = abovePrompt(output, () => {
    if (!isEnded) rl?.prompt(true);
  });

  function maybeFinish(): void {
    if (!isEnded || !queue.isIdle()) return;
    const summary = { exitCode: isTTY ? 0 : exitCodeOf(outcomes) };
    void Promise.all([written(), history?.settled()]).then(() => resolveFinished(summary));
  }

  const queue = createReplyQueue({
    concurrency: opts.concurrency ?? 4,
    print: (line, block) =>
      isTTY ? printAbovePrompt(() => write(`${block}\n\n`)) : write(transcript(line, block)),
    onSettled: maybeFinish,
  });

  function onLine(raw: string, registry: CommandRegistry, handlers: AdapterHandlers): void {
    if (isEnded) return;
    const line = raw.trim();
    const kind = lineKind(line);
    if (kind === 'exit') {
      // Like Hubot's shell: the session ends here, piped or not; later lines are not run.
      isEnded = true;
      isEndedByLine = true;
      rl?.close();
    } else if (kind === 'command') {
      queue.add(
        line,
        async (entry) => {
          outcomes.add(await runLine(opts, handlers, entry, controller.signal));
        },
        changesState(registry, line),
      );
    } else if (isTTY) {
      rl?.prompt(); // a blank line or a # comment
    }
  }

  function onClose(): void {
    opts.terminalLog?.setGuard(undefined);
    // Ctrl-D, Ctrl-C or a stop leave the cursor after `herald> `: the shell's prompt starts below.
    if (isTTY && !isEndedByLine) write('\n');
    isEnded = true;
    maybeFinish();
  }

  return {
    platform: 'console',
    finished,
    isReady: () => isStarted && !isEnded,
    start(registry, handlers) {
      rl = openReadline(opts, registry);
      rl.on('line', (raw: string) => onLine(raw, registry, handlers));
      rl.on('close', onClose);
      if (isTTY) startTerminal(rl, opts, { write, printAbovePrompt, history });
      else if (opts.notice) log.info({}, opts.notice);
      isStarted = true;
      return Promise.resolve();
    },
    stop() {
      rl?.close();
      isEnded = true;
      controller.abort(stoppedError());
      return written();
    },
  };
}
