// What a message component (a button now, a form later) re-invokes when it is used, kept where
// every replica finds it. A platform hands the component's id back on click and caps its length
// (Discord's custom_id: 100 characters), so a small target travels inline in the id; a larger one is
// written to the store under a short hashed id. Rendering is synchronous, so the write starts as the
// id is made; the adapter awaits `saved()` before it sends the message that carries the ids, and a
// click on another replica (or after a restart) reads the target back from the store.
// https://discord.com/developers/docs/components/reference#anatomy-of-a-component-custom-id
import { createHash } from 'node:crypto';

/** What a component re-invokes: the command's full name and its typed input, or its form filled in. */
export interface ComponentTarget {
  command: string;
  input: Record<string, string | number | boolean>;
  /** Opens the command's form with `input` as its values (a refused form's "Edit and send again"). */
  opensForm?: boolean;
}

/** The store's key/value, as much of it as component state needs (the Store implements it). */
export interface ComponentValues {
  getValue(key: string): Promise<string | undefined>;
  setValue(key: string, value: string, opts?: { ttlMs?: number }): Promise<boolean>;
  deleteValues(keyPrefix: string): Promise<number>;
}

/** How long a stored target that belongs to no schedule is kept after its message was sent. */
export const COMPONENT_TTL_MS = 30 * 24 * 60 * 60_000;

const INLINE_PREFIX = 'h1:';
const STORED_PREFIX = 'h1#';
const HASH_LENGTH = 24;
const KEY_PREFIX = 'component:';
/** An owner's id travels in the component id and the key: letters, digits, `-` and `_`. */
const OWNER_ID = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * Who a target belongs to. A stored target whose owner exists when it is written is kept without
 * expiry until `forgetComponents(owner)`; any other expires after COMPONENT_TTL_MS.
 */
export interface ComponentOwners {
  /** The owner a target names, read from the target itself (rendering cannot wait). */
  of(target: ComponentTarget): string | undefined;
  exists(owner: string): Promise<boolean>;
}

/** The ids made for one message, and the writes they started. */
export interface ComponentBatch {
  idFor(target: ComponentTarget): string;
  /** Settles when every target this batch stored is written; rejects when a write failed. */
  saved(): Promise<void>;
}

export interface ComponentState {
  batch(): ComponentBatch;
  /** The target behind a component id; undefined when it is unknown, malformed or expired. */
  resolve(id: string): Promise<ComponentTarget | undefined>;
}

interface ComponentStateOptions {
  values: ComponentValues;
  /** The platform's cap on a component id (Discord: 100). */
  maxIdLength: number;
  owners?: ComponentOwners;
  ttlMs?: number;
}

function serialize(target: ComponentTarget): string {
  return JSON.stringify(
    target.opensForm === true ? [target.command, target.input, 'form'] : [target.command, target.input],
  );
}

const isPrimitive = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value));

/** Reads a serialized target back; undefined for anything that is not a well-formed one. */
function parseTarget(text: string): ComponentTarget | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length < 2 || parsed.length > 3) return undefined;
  const [command, input, form] = parsed as [unknown, unknown, unknown];
  if (parsed.length === 3 && form !== 'form') return undefined;
  if (typeof command !== 'string' || command === '') return undefined;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!isPrimitive(value)) return undefined;
    out[key] = value;
  }
  return { command, input: out, ...(form === 'form' ? { opensForm: true } : {}) };
}

/** The target itself as an id, or undefined when it does not fit in `maxLength`. */
export function inlineComponentId(target: ComponentTarget, maxLength: number): string | undefined {
  const id = INLINE_PREFIX + serialize(target);
  return id.length <= maxLength ? id : undefined;
}

/** The id of a stored target: its hash, and its owner when it has one. */
export function storedComponentId(target: ComponentTarget, owner?: string): string {
  const hash = createHash('sha256').update(serialize(target)).digest('base64url').slice(0, HASH_LENGTH);
  return STORED_PREFIX + hash + (owner === undefined ? '' : `.${owner}`);
}

/** Where a stored id's target is kept: under its owner's prefix (ownerKeyPrefix) when it has one. */
function keyOf(id: string): string | undefined {
  const m = /^h1#([A-Za-z0-9_-]{24})(?:\.([A-Za-z0-9_-]{1,40}))?$/.exec(id);
  if (!m) return undefined;
  return m[2] === undefined ? `${KEY_PREFIX}${m[1]}` : `${ownerKeyPrefix(m[2])}${m[1]}`;
}

/** No unowned key (`component:<hash>`) has a second colon, so no owner's prefix reaches one. */
const ownerKeyPrefix = (owner: string) => `${KEY_PREFIX}${owner}:`;

/** Deletes every stored target of `owner` (a schedule, when it is removed). */
export function forgetComponents(values: Pick<ComponentValues, 'deleteValues'>, owner: string) {
  return OWNER_ID.test(owner) ? values.deleteValues(ownerKeyPrefix(owner)) : Promise.resolve(0);
}

export function createComponentState(opts: ComponentStateOptions): ComponentState {
  const { values, maxIdLength, owners } = opts;
  const ttlMs = opts.ttlMs ?? COMPONENT_TTL_MS;
  const write = async (key: string, target: ComponentTarget, owner: string | undefined) => {
    const isOwned = owner !== undefined && (await owners!.exists(owner));
    await values.setValue(key, serialize(target), isOwned ? {} : { ttlMs });
  };
  return {
    batch() {
      const writes = new Map<string, Promise<void>>();
      return {
        idFor(target) {
          const plain: ComponentTarget = {
            command: target.command,
            input: { ...target.input },
            ...(target.opensForm === true ? { opensForm: true } : {}),
          };
          const inline = inlineComponentId(plain, maxIdLength);
          if (inline !== undefined) return inline;
          const named = owners?.of(plain);
          const owner = named !== undefined && OWNER_ID.test(named) ? named : undefined;
          const id = storedComponentId(plain, owner);
          const key = keyOf(id)!;
          if (!writes.has(key)) {
            const written = write(key, plain, owner);
            // Awaited by saved(); until then a failure must not count as unhandled.
            written.catch(() => undefined);
            writes.set(key, written);
          }
          return id;
        },
        async saved() {
          await Promise.all(writes.values());
        },
      };
    },
    async resolve(id) {
      if (id.startsWith(INLINE_PREFIX)) return parseTarget(id.slice(INLINE_PREFIX.length));
      const key = keyOf(id);
      if (key === undefined) return undefined;
      const text = await values.getValue(key);
      return text === undefined ? undefined : parseTarget(text);
    },
  };
}

/** Values held in this process only (one replica, tests), each dropped once expired. */
export function createLocalValues(now: () => number = Date.now): ComponentValues {
  const entries = new Map<string, { value: string; expiresAt?: number }>();
  return {
    getValue(key) {
      const entry = entries.get(key);
      if (entry?.expiresAt !== undefined && entry.expiresAt <= now()) entries.delete(key);
      return Promise.resolve(entries.get(key)?.value);
    },
    setValue(key, value, o) {
      const t = now();
      // Expired entries go as new ones come in, so the map holds about one ttl of them.
      for (const [k, e] of entries) if (e.expiresAt !== undefined && e.expiresAt <= t) entries.delete(k);
      entries.set(key, { value, ...(o?.ttlMs === undefined ? {} : { expiresAt: t + o.ttlMs }) });
      return Promise.resolve(true);
    },
    deleteValues(keyPrefix) {
      const gone = [...entries.keys()].filter((k) => k.startsWith(keyPrefix));
      for (const k of gone) entries.delete(k);
      return Promise.resolve(gone.length);
    },
  };
}
