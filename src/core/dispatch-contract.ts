// The dispatcher's contract: what it is built from (DispatcherOptions) and what it offers the
// adapters and the scheduling engine (Dispatcher); dispatch.ts implements it.
import type { AdapterHandlers, CommandRegistry, Invocation } from './adapter.ts';
import type { Actor } from './actor.ts';
import type { Command, CommandLog } from './command.ts';
import type { CommandRecord, RateLimiter } from './dispatch-steps.ts';
import type { PreferenceBook, ScheduledFor } from './preferences.ts';
import type { Reply } from './reply.ts';
import type { ServiceKey, Services } from './services.ts';

export interface DispatchLog extends CommandLog {
  child?(bindings: Record<string, unknown>): CommandLog;
}

export interface DispatcherOptions {
  registry: CommandRegistry;
  services: Services;
  log: DispatchLog;
  commandTimeoutMs: number;
  /** Which variable enables each service, for "not configured" answers. */
  serviceVariables: Readonly<Partial<Record<ServiceKey, string>>>;
  now?: () => Date;
  rateLimit?: RateLimiter;
  /** Discord allows 3 s for autocomplete answers. */
  autocompleteTimeoutMs?: number;
  /** Called once per invocation, after the reply (metrics). */
  onCommand?: (record: CommandRecord) => void;
  /**
   * Turns a command's own reply into the one sent (the simulated-data marker), given every service
   * the run used (`needs` and what its options added); failures are not passed.
   */
  markReply?: (reply: Reply, command: Command & { services: readonly ServiceKey[] }, actor: Actor) => Reply;
  /**
   * Notices waiting for the invoker (their schedule paused, and no DM could tell them), taken and
   * added to the reply to their next command.
   */
  notices?: { take(actor: Actor): Promise<string | undefined> };
  /** What people and channels set with /settings; absent: the defaults apply to every command. */
  preferences?: PreferenceBook;
}

/** A scheduled run's: a watch's (its command's watch input), and the schedule whose preferences apply. */
export interface RunOptions {
  watch?: boolean;
  schedule?: ScheduledFor;
}

/** A command line read without running it: its command, and every service a run of it uses. */
export interface CheckedLine {
  command: Command;
  /** `needs`, then what its options add (`uses`: speak:yes's speech). */
  services: readonly ServiceKey[];
}

export interface Dispatcher extends AdapterHandlers {
  /** Stops taking commands and waits for the ones in flight; false when `timeoutMs` ran out first. */
  drain(timeoutMs: number): Promise<boolean>;
  inFlight(): number;
  /**
   * Reads a command line as typed (`/jobs what:"rust developer"`) without running it: finds the
   * command (`accept` may refuse it first), checks its services, options and `actor`'s access.
   * Throws the UserError the invoker would see.
   */
  check(
    line: string,
    actor: Actor,
    accept?: (command: Command, commands: readonly Command[]) => void,
  ): Promise<CheckedLine>;
  /**
   * Runs a command line for a schedule as `actor` typed it (or a command with its typed options),
   * without the per-user rate limit; the reply, or the failure thrown as it is. For a watch
   * (`watch: true`), with the input its command's watch runs with.
   */
  run(
    line: string | Pick<Invocation, 'command' | 'rawInput'>,
    actor: Actor,
    signal: AbortSignal,
    opts?: RunOptions,
  ): Promise<Reply>;
}
