// The console adapter, herald's default run mode (like hubot's Shell): one command per line.
// On a terminal it is interactive (prompt, history, tab completion); with piped input it prints
// one reply block per command line, in input order, and `finished` resolves at end of input once
// every command has answered. stdout holds only replies; logs go elsewhere.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import { AdapterError } from '../../src/errors.ts';
import type { Actor } from '../../src/core/actor.ts';
import type { AdapterHandlers, ChatAdapter, CommandRegistry, Invocation } from '../../src/core/adapter.ts';
import { parseLine } from '../../src/core/args.ts';
import type { CommandLog } from '../../src/core/command.ts';
import type { Attachment, Reply } from '../../src/core/reply.ts';
import { renderConsole } from './render.ts';

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
}

export interface ConsoleAdapter extends ChatAdapter {
  /** Resolves once input has ended (EOF, exit or quit) and every command has answered. */
  readonly finished: Promise<void>;
}

const OPERATOR: Actor = {
  platform: 'console',
  id: 'local',
  displayName: 'operator',
  roles: [],
  isOperator: true,
};
const PROMPT = 'herald> ';

interface Slot {
  line: string;
  block?: string;
}

function safeFileName(name: string): string {
  const base = basename(name)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '');
  return (base || 'attachment').slice(-80);
}

export function createConsoleAdapter(opts: ConsoleAdapterOptions): ConsoleAdapter {
  const { output, isTTY, log } = opts;
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  const controller = new AbortController();
  const slots: Slot[] = [];
  const waiting: (() => Promise<void>)[] = [];
  let running = 0;
  let isEnded = false;
  let isStarted = false;
  let rl: Interface | undefined;
  let lastWrite: Promise<void> = Promise.resolve();
  let resolveFinished: () => void = () => undefined;
  const finished = new Promise<void>((r) => (resolveFinished = r));

  function write(text: string): void {
    lastWrite = new Promise<void>((done) => {
      output.write(text, () => done());
    });
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
    if (isEnded && slots.length === 0 && running === 0 && waiting.length === 0) {
      void lastWrite.then(resolveFinished);
    }
  }

  /** Writes every answered block at the head of the queue, so output keeps input order. */
  function flush(): void {
    let wrote = false;
    while (slots[0]?.block !== undefined) {
      const slot = slots.shift()!;
      if (isTTY) {
        clearLine(output, 0);
        cursorTo(output, 0);
        write(`${slot.block}\n\n`);
      } else {
        write(`> ${slot.line}\n${slot.block}\n\n`);
      }
      wrote = true;
    }
    if (wrote && isTTY && !isEnded) rl?.prompt(true);
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
    const slot: Slot = { line };
    slots.push(slot);
    waiting.push(async () => {
      const invocation: Invocation = {
        command: parsed.name,
        rawInput: parsed.text,
        actor: OPERATOR,
        channelId: 'console',
        signal: controller.signal,
        respond: async (reply) => {
          if (slot.block === undefined) slot.block = await render(reply);
        },
      };
      try {
        await handlers.onInvocation(invocation);
      } catch (err) {
        log.error({ err, command: parsed.name }, 'console.invocation_failed');
      }
      // The dispatcher always responds; this keeps the queue moving should it ever not.
      slot.block ??= 'That command gave no answer.';
    });
    pump();
  }

  function completer(registry: CommandRegistry) {
    const names = [...new Set(registry.commands.flatMap((c) => [c.name.split(' ')[0]!, c.name]))].map(
      (n) => `/${n}`,
    );
    return (line: string): [string[], string] => {
      const hits = names.filter((n) => n.startsWith(line));
      return [hits.length > 0 ? hits : names, line];
    };
  }

  return {
    platform: 'console',
    finished,
    isReady: () => isStarted && !isEnded,
    start(registry, handlers) {
      rl = createInterface({
        input: opts.input,
        output: isTTY ? output : undefined,
        terminal: isTTY,
        historySize: 1000,
        removeHistoryDuplicates: true,
        completer: isTTY ? completer(registry) : undefined,
      });
      rl.on('line', (raw) => {
        const line = raw.trim();
        if (isTTY && /^(exit|quit)$/i.test(line)) {
          rl?.close();
          return;
        }
        if (line === '' || line.startsWith('#')) {
          if (isTTY) rl?.prompt();
          return;
        }
        enqueue(line, handlers);
      });
      rl.on('close', () => {
        isEnded = true;
        maybeFinish();
      });
      if (isTTY) {
        rl.on('SIGINT', opts.onInterrupt ?? (() => process.kill(process.pid, 'SIGINT')));
        if (opts.notice) write(`${opts.notice}\n`);
        write('Type /help for the commands, exit to quit.\n');
        rl.setPrompt(PROMPT);
        rl.prompt();
      } else if (opts.notice) {
        log.info({}, opts.notice);
      }
      isStarted = true;
      return Promise.resolve();
    },
    stop() {
      isEnded = true;
      rl?.close();
      controller.abort(
        new AdapterError({ platform: 'console', code: 'expired', message: 'console stopped' }),
      );
      return lastWrite;
    },
  };
}
