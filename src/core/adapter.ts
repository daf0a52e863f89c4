// What every chat adapter implements: platform events in, Invocations out; Replies back in,
// platform payloads out. Adapters own platform timing (Discord's and Slack's 3 s), nothing else.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Actor } from './actor.ts';
import type { ChatChannel } from './channel.ts';
import type { Command, Choice, Surface } from './command.ts';
import type { Reply } from './reply.ts';

export interface Invocation {
  /** The command's full name, e.g. "weather" or "email send". */
  command: string;
  /** Typed options (Discord) or the raw argument text (console, Slack). */
  rawInput: Record<string, unknown> | string;
  actor: Actor;
  channelId: string;
  /** The Discord or Slack channel it was typed in (absent on the console and for scheduled runs). */
  channel?: ChatChannel;
  /** Absent: typed. */
  surface?: Surface;
  /**
   * The invoker's locale as the platform tells it (Discord's interaction `locale`, Slack's
   * users.info `locale`, read only when asked): the language where /settings set none.
   */
  locale?: string | (() => Promise<string | undefined>);
  /** Aborts when the platform's reply window closes. */
  signal: AbortSignal;
  /**
   * Called once the checks that can refuse a command before any work (input, access, rate limit)
   * have passed and its handler starts: Discord defers here, so a refusal answered before it costs
   * one call.
   */
  beginWork?: () => void;
  /**
   * The platform can answer with a form (Discord's modal, Slack's modal view): a command that has
   * one, given no arguments, answers with its form (src/core/form.ts).
   */
  hasForms?: boolean;
  /** Opens the command's form filled in with these values (a button that reopens a refused form). */
  openForm?: Record<string, string>;
  respond(reply: Reply): Promise<void>;
}

export interface AutocompleteRequest {
  command: string;
  option: string;
  partial: string;
  actor: Actor;
}

/** One subcommand of a group: its own word ("send") and the command ("email send"). */
export interface Subcommand {
  name: string;
  command: Command;
}

/** Commands sharing a first word ("email send", "email status") form the group "email". */
export interface CommandGroup {
  name: string;
  subcommands: readonly Subcommand[];
}

/**
 * The commands as every platform needs them: the flat list (the dispatcher, help), and grouped
 * (Discord's subcommands, Slack's one listener per top-level name, the console's completion), so
 * no adapter splits names itself.
 */
export interface CommandRegistry {
  readonly commands: readonly Command[];
  /** Top-level slash entries in list order: a plain command, or a group of subcommands. */
  readonly entries: readonly (Command | CommandGroup)[];
  /** The message commands (`onMessage`: Read aloud), reached from a message and never typed. */
  readonly messageCommands: readonly Command[];
  get(name: string): Command | undefined;
  /** The group named `name` ("email"), or undefined when it is not a group. */
  group(name: string): CommandGroup | undefined;
}

export function isGroup(entry: Command | CommandGroup): entry is CommandGroup {
  return 'subcommands' in entry;
}

/** A group's description on every platform: its name and its subcommands (`Email: send, status`). */
export function groupDescription(group: CommandGroup): string {
  const name = `${group.name[0]?.toUpperCase() ?? ''}${group.name.slice(1)}`;
  return `${name}: ${group.subcommands.map((s) => s.name).join(', ')}`;
}

/** How a command ended: answered, refused (UserError), or failed (service, deadline, internal). */
export type CommandOutcome = 'ok' | 'user_error' | 'service_error' | 'deadline' | 'error';

export interface AdapterHandlers {
  /**
   * Runs a command and always calls `invocation.respond` exactly once. Never throws. Resolves with
   * the outcome (the console's exit code is made from it).
   */
  onInvocation(invocation: Invocation): Promise<CommandOutcome | void>;
  onAutocomplete(request: AutocompleteRequest): Promise<Choice[]>;
}

export interface ChatAdapter {
  readonly platform: 'console' | 'discord' | 'slack';
  start(registry: CommandRegistry, handlers: AdapterHandlers): Promise<void>;
  /** Stops taking new events; resolves once the platform connection is closed. */
  stop(): Promise<void>;
  /** True once connected (for /readyz). */
  isReady(): boolean;
}

/** Whether a request's body is read, decided from its method, path and headers alone. */
type Admission =
  /** Read at most `maxBytes` (the largest payload the route can receive), then `handle` it. */
  | { maxBytes: number }
  /** Refused with this status before any of the body is read; the connection is closed. */
  | { status: number; headers?: Record<string, string> };

/** A path an adapter serves on the public server: a platform's signed requests. */
export interface HttpRoute {
  admit(req: IncomingMessage): Admission;
  /** The request and its whole body, read by the server within the admitted bound. */
  handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void;
}

/**
 * The one HTTP server on PORT (src/health.ts) lets an adapter serve a path on it (Discord's
 * interactions endpoint, Slack's events); `add` returns the function that removes the route again.
 */
export interface HttpRoutes {
  add(path: string, route: HttpRoute): () => void;
}
