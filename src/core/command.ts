// The command contract: a command is a definition (name, options as a zod object whose every
// field is described, the services it needs, who may run it) and a handler that returns a Reply.
// Help, Discord option types, Slack usage and console parsing all come from `options`.
import type { z } from 'zod';
import type { UserError } from '../errors.ts';
import type { Actor } from './actor.ts';
import type { Reply } from './reply.ts';
import type { ServiceKey, Services } from './services.ts';

export interface CommandLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface CommandContext {
  actor: Actor;
  /** Only the services this command `needs` are guaranteed present. */
  services: Services;
  log: CommandLog;
  /** Fires when the reply window closes; pass it to every service call. */
  signal: AbortSignal;
  now(): Date;
  invocationId: string;
}

/** A guard run by the dispatcher before the handler; returns a UserError to deny. */
export type AccessCheck = (ctx: CommandContext) => UserError | undefined | Promise<UserError | undefined>;

export interface Choice {
  name: string;
  value: string;
}

export type Autocomplete = (partial: string, ctx: CommandContext) => Promise<Choice[]>;

export interface CommandDef<S extends z.ZodObject> {
  /** Lower-case slash name; a space makes a subcommand of a group: "email send". */
  name: string;
  description: string;
  options: S;
  /** Option names that take positional words, in order; the last one takes every remaining word. */
  positional?: readonly (keyof z.output<S> & string)[];
  needs: readonly ServiceKey[];
  access?: readonly AccessCheck[];
  /** Only the invoker sees the reply (fixed up front: Discord decides it when deferring). */
  ephemeral?: boolean;
  autocomplete?: Partial<Record<keyof z.output<S> & string, Autocomplete>>;
  /** Examples for /help and the README, written as console lines. */
  examples?: readonly string[];
  /**
   * Reads argument text (console, Slack) its own way before the common grammar, for a form the
   * grammar cannot express (a command line inside a command line); undefined: use the grammar.
   */
  readText?: (text: string) => Record<string, string> | undefined;
  handler(input: z.output<S>, ctx: CommandContext): Promise<Reply>;
}

export interface Command<I = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly options: z.ZodObject;
  readonly positional: readonly string[];
  readonly needs: readonly ServiceKey[];
  readonly access: readonly AccessCheck[];
  readonly ephemeral: boolean;
  readonly autocomplete: Partial<Record<string, Autocomplete>>;
  readonly examples: readonly string[];
  readonly readText?: (text: string) => Record<string, string> | undefined;
  handler(input: I, ctx: CommandContext): Promise<Reply>;
}

const NAME_RE = /^[a-z][a-z0-9-]{0,31}( [a-z][a-z0-9-]{0,31})?$/;

export function defineCommand<S extends z.ZodObject>(def: CommandDef<S>): Command<z.output<S>> {
  if (!NAME_RE.test(def.name)) throw new Error(`invalid command name "${def.name}"`);
  if (def.description.length < 1 || def.description.length > 100) {
    throw new Error(`command ${def.name}: description must be 1-100 characters`);
  }
  for (const spec of describeOptions(def.options)) {
    if (!spec.description) throw new Error(`command ${def.name}: option ${spec.name} has no .describe()`);
  }
  return {
    name: def.name,
    description: def.description,
    options: def.options,
    positional: def.positional ?? [],
    needs: def.needs,
    access: def.access ?? [],
    ephemeral: def.ephemeral ?? false,
    autocomplete: def.autocomplete ?? {},
    examples: def.examples ?? [],
    ...(def.readText ? { readText: def.readText } : {}),
    handler: (input, ctx) => def.handler(input, ctx),
  };
}

export type OptionType = 'string' | 'integer' | 'number' | 'boolean';

export interface OptionSpec {
  name: string;
  description: string;
  type: OptionType;
  required: boolean;
  choices?: readonly string[];
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
}

interface ZodInternals {
  _zod: {
    def: { type: string; innerType?: z.ZodType; defaultValue?: unknown; entries?: Record<string, string> };
  };
  description?: string;
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
  minLength?: number | null;
  maxLength?: number | null;
}

/** Reads each option's type, bounds and description out of the zod object, for every adapter. */
export function describeOptions(schema: z.ZodObject): OptionSpec[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    let node = field as unknown as ZodInternals;
    let required = true;
    let description = node.description;
    let defaultValue: unknown;
    for (;;) {
      const def = node._zod.def;
      if ((def.type === 'optional' || def.type === 'default' || def.type === 'prefault') && def.innerType) {
        required = false;
        if (def.type === 'default') defaultValue = def.defaultValue;
        node = def.innerType;
        description ??= node.description;
        continue;
      }
      if ((def.type === 'nullable' || def.type === 'pipe') && def.innerType) {
        node = def.innerType;
        description ??= node.description;
        continue;
      }
      break;
    }
    const t = node._zod.def.type;
    const spec: OptionSpec = {
      name,
      description: description ?? '',
      type: t === 'number' ? (node.isInt ? 'integer' : 'number') : t === 'boolean' ? 'boolean' : 'string',
      required,
    };
    if (t === 'enum' && node._zod.def.entries) spec.choices = Object.values(node._zod.def.entries);
    if (t === 'number') {
      if (typeof node.minValue === 'number' && Number.isFinite(node.minValue)) spec.min = node.minValue;
      if (typeof node.maxValue === 'number' && Number.isFinite(node.maxValue)) spec.max = node.maxValue;
    }
    if (t === 'string') {
      if (typeof node.minLength === 'number') spec.minLength = node.minLength;
      if (typeof node.maxLength === 'number') spec.maxLength = node.maxLength;
    }
    if (defaultValue !== undefined) spec.default = defaultValue;
    return spec;
  });
}
