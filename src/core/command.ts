// The command contract: a command is a definition (name, options as a zod object whose every
// field is described, the services it needs, who may run it) and a handler that returns a Reply.
// Help, Discord option types, Slack usage and console parsing all come from `options`.
import type { z } from 'zod';
import type { UserError } from '../errors.ts';
import type { Actor } from './actor.ts';
import type { ChatChannel } from './channel.ts';
import { optionSpecs } from './options.ts';
import type { Preferences } from './preferences.ts';
import type { Choice, Reply } from './reply.ts';
import type { MessageKey, Translate } from '../i18n/translate.ts';
import type { ServiceClients, ServiceKey, Services } from './services.ts';
import type { CommandWatch, WatchedReply, WatchSpec } from './watch-contract.ts';

export { describeOptions, type OptionSpec, type OptionType } from './options.ts';

export interface CommandLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Exactly the services a command `needs`, each present. */
export type NeededServices<K extends ServiceKey> = { [P in K]: ServiceClients[P] };

/** What a handler gets. `S` is the services it may use: in a handler, those it `needs`. */
/** How a command was invoked in chat: typed, a button, a form, or the Slack Home tab. */
export type Surface = 'typed' | 'button' | 'form' | 'home';

export interface CommandContext<S extends Services = Services> {
  actor: Actor;
  services: S;
  log: CommandLog;
  /** Fires when the reply window closes; pass it to every service call. */
  signal: AbortSignal;
  now(): Date;
  invocationId: string;
  /** The Discord or Slack channel the command was typed in; absent on the console and in a scheduled run. */
  channel?: ChatChannel;
  /** How it was invoked in chat (absent: typed, or the console). */
  surface?: Surface;
  /** What applies to this run (/settings), resolved once by the dispatcher (src/core/preferences.ts). */
  preferences: Preferences;
  /** Writes a catalogue message (src/i18n/) in `preferences.language`. */
  t: Translate;
  /** The locale numbers and dates are written in (`Intl`): `preferences.language`. */
  locale: string;
}

/** Options a preference fills when not typed: `units` from the units, a place from the home place. */
type Preferred<O extends string> = Partial<Record<O, 'units' | 'home'>>;

/** A guard run by the dispatcher before the handler; returns a UserError to deny. */
export type AccessCheck = (ctx: CommandContext) => UserError | undefined | Promise<UserError | undefined>;

export type { Choice } from './reply.ts';

type Autocomplete = (partial: string, ctx: CommandContext) => Promise<Choice[]>;

/**
 * The form a command opens when it is run with no arguments where the platform has forms
 * (src/core/form.ts builds it from `options`): a field per option named here, and one for the
 * further options, written as typed (`only:new alert:rain`).
 */
/** A form's words are catalogue keys (src/i18n/), written in the reader's language. */
interface FormSpec {
  title: MessageKey;
  /**
   * The options given a field each, in order, with the label shown (at most 45 characters) and
   * the hint (else the option's description).
   */
  fields: readonly { option: string; label: MessageKey; hint?: MessageKey }[];
  /** The field of the further options: its label and an example of what to write. */
  more: { label: MessageKey; hint: MessageKey };
}

/** A handler's reply with the data it was formatted from, which the command's `watch` reads. */
interface Answer<D> {
  reply: Reply;
  data: D;
}

interface CommandDef<S extends z.ZodObject, K extends ServiceKey, D = never> {
  /** Lower-case slash name; a space makes a subcommand of a group: "email send". */
  name: string;
  description: string;
  options: S;
  /** Option names that take positional words, in order; the last one takes every remaining word. */
  positional?: readonly (keyof z.output<S> & string)[];
  preferred?: Preferred<keyof z.output<S> & string>;
  /** The services the handler uses; the dispatcher refuses the command while one is missing. */
  needs: readonly K[];
  /**
   * The services a run with `input` uses beside `needs`, none of them required: an option's
   * attachment (speak:yes: speech). The simulated-data guard counts them with `needs`.
   */
  uses?: (input: z.output<S>) => readonly ServiceKey[];
  access?: readonly AccessCheck[];
  /** Only the invoker sees the reply (fixed up front: Discord decides it when deferring). */
  ephemeral?: boolean;
  autocomplete?: Partial<Record<keyof z.output<S> & string, Autocomplete>>;
  /** Examples for /help and the README, written as console lines. */
  examples?: readonly string[];
  /**
   * A message command: its name on a message's menu ("Read aloud": Discord's Apps menu, Slack's
   * message shortcut). The adapter hands it the message's text as words in the option `text`; it is
   * not offered as a slash command.
   */
  onMessage?: string;
  /**
   * Changes what later commands read (/schedule add, remove…): where lines run concurrently (a
   * piped console), it runs after every line before it, and the lines after it wait for it.
   */
  changesState?: boolean;
  /** Its form, opened by the command with no arguments on Discord and Slack. */
  form?: FormSpec;
  /**
   * It draws the Home tab (Slack's App Home): run from there (`surface: 'home'`) as the user who
   * opens it, it answers with a Home (src/core/reply.ts).
   */
  drawsHome?: boolean;
  /**
   * How a watch of this command (`/schedule add ... only:new`) tells what is new, from the data the
   * handler answers with (`{ reply, data }`), never from the reply's text.
   */
  watch?: CommandWatch<D>;
  handler(input: z.output<S>, ctx: CommandContext<NeededServices<K>>): Promise<Reply | Answer<D>>;
}

export interface Command<I = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly options: z.ZodObject;
  readonly positional: readonly string[];
  readonly preferred: Preferred<string>;
  readonly needs: readonly ServiceKey[];
  /** The services a run with `input` uses beside `needs` (CommandDef.uses). */
  uses?(input: I): readonly ServiceKey[];
  readonly access: readonly AccessCheck[];
  readonly ephemeral: boolean;
  readonly autocomplete: Partial<Record<string, Autocomplete>>;
  readonly examples: readonly string[];
  /** Its name on a message's menu when it is a message command (CommandDef.onMessage). */
  readonly onMessage?: string;
  readonly changesState: boolean;
  readonly form?: FormSpec;
  /** It draws the Home tab (CommandDef.drawsHome). */
  readonly drawsHome?: boolean;
  /** Its watch's rules; the items of each answer's data travel with the reply (WatchedReply). */
  readonly watch?: WatchSpec;
  handler(input: I, ctx: CommandContext): Promise<Reply>;
}

const NAME_RE = /^[a-z][a-z0-9-]{0,31}( [a-z][a-z0-9-]{0,31})?$/;

/** The reply a command leaves, with its watch's items of the data when it has a watch. */
function watched<D>(watch: CommandWatch<D> | undefined, out: Reply | Answer<D>): Reply {
  const isAnswer = 'data' in out && 'reply' in out;
  const reply = isAnswer ? out.reply : out;
  if (!watch) return reply;
  const items = (alert: string | undefined) => (isAnswer ? watch.items(out.data, alert) : []);
  const withItems: WatchedReply = { ...reply, watch: { spec: watch, items } };
  return withItems;
}

export function defineCommand<S extends z.ZodObject, K extends ServiceKey = never, D = never>(
  def: CommandDef<S, K, D>,
): Command<z.output<S>> {
  if (!NAME_RE.test(def.name)) throw new Error(`invalid command name "${def.name}"`);
  if (def.description.length < 1 || def.description.length > 100) {
    throw new Error(`command ${def.name}: description must be 1-100 characters`);
  }
  const specs = optionSpecs(def.options);
  for (const spec of specs) {
    if (!spec.description) throw new Error(`command ${def.name}: option ${spec.name} has no .describe()`);
  }
  if (specs.filter((s) => s.commandLine).length > 1) {
    throw new Error(`command ${def.name}: only one option may take a command line`);
  }
  return {
    name: def.name,
    description: def.description,
    options: def.options,
    positional: def.positional ?? [],
    preferred: def.preferred ?? {},
    needs: def.needs,
    ...(def.uses ? { uses: def.uses } : {}),
    access: def.access ?? [],
    ephemeral: def.ephemeral ?? false,
    autocomplete: def.autocomplete ?? {},
    examples: def.examples ?? [],
    ...(def.onMessage === undefined ? {} : { onMessage: def.onMessage }),
    changesState: def.changesState ?? false,
    ...(def.form ? { form: def.form } : {}),
    ...(def.drawsHome === true ? { drawsHome: true } : {}),
    ...(def.watch ? { watch: def.watch } : {}),
    // The dispatcher runs a handler only once every service in `needs` is present (checkNeeds),
    // so the bag it passes has them; this is the one place that relies on that.
    handler: async (input, ctx) =>
      watched(def.watch, await def.handler(input, ctx as CommandContext<NeededServices<K>>)),
  };
}
