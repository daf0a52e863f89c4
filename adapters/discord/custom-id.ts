// Button custom_ids for Actions. Discord caps a custom_id at 100 characters and hands it back on
// click, so a small action is encoded inline; a larger one gets a short hashed id whose action is
// kept in an in-memory LRU map (lost on restart: the click then answers "expired").
// https://discord.com/developers/docs/components/reference#anatomy-of-a-component-custom-id
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Action } from '../../src/core/reply.ts';
import { DISCORD_LIMITS } from '../../src/domain/discord.ts';

export const CUSTOM_ID_MAX = DISCORD_LIMITS.customId;
const INLINE_PREFIX = 'h1:';
const STORED_PREFIX = 'h1#';

/** What a button re-invokes: the command's full name and its typed input. */
export interface ActionTarget {
  command: string;
  input: Record<string, string | number | boolean>;
}

function serialize(action: ActionTarget): string {
  return JSON.stringify([action.command, action.input]);
}

/** The action itself as a custom_id, or undefined when it does not fit in 100 characters. */
export function inlineCustomId(action: ActionTarget): string | undefined {
  const id = INLINE_PREFIX + serialize(action);
  return id.length <= CUSTOM_ID_MAX ? id : undefined;
}

/** A short id derived from the action, for actions too long to travel inline. */
export function storedCustomId(action: ActionTarget): string {
  return STORED_PREFIX + createHash('sha256').update(serialize(action)).digest('base64url').slice(0, 24);
}

/** The stateless choice: inline when it fits, else the hashed id (which needs an ActionStore). */
export function customIdFor(action: ActionTarget): string {
  return inlineCustomId(action) ?? storedCustomId(action);
}

function isPrimitive(value: unknown): value is string | number | boolean {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** Reads an inline custom_id back; undefined for anything that is not a well-formed herald action. */
export function parseInlineCustomId(customId: string): ActionTarget | undefined {
  if (!customId.startsWith(INLINE_PREFIX)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(customId.slice(INLINE_PREFIX.length));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
  const [command, input] = parsed as [unknown, unknown];
  if (typeof command !== 'string' || command === '') return undefined;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!isPrimitive(value)) return undefined;
    out[key] = value;
  }
  return { command, input: out };
}

export interface ActionStore {
  /** The custom_id for a button; remembers the action when it cannot travel inline. */
  idFor(action: Action | ActionTarget): string;
  /** The action behind a clicked button, or undefined when it is unknown or has expired. */
  resolve(customId: string): ActionTarget | undefined;
}

export interface ActionStoreOptions {
  /** Most remembered long actions; the least recently used go first. */
  max?: number;
  ttlMs?: number;
}

export function createActionStore(opts: ActionStoreOptions = {}): ActionStore {
  const stored = new LRUCache<string, ActionTarget>({
    max: opts.max ?? 5_000,
    ttl: opts.ttlMs ?? 24 * 60 * 60_000,
  });
  return {
    idFor(action) {
      const target: ActionTarget = { command: action.command, input: { ...action.input } };
      const inline = inlineCustomId(target);
      if (inline !== undefined) return inline;
      const id = storedCustomId(target);
      stored.set(id, target);
      return id;
    },
    resolve(customId) {
      if (customId.startsWith(STORED_PREFIX)) return stored.get(customId);
      return parseInlineCustomId(customId);
    },
  };
}
