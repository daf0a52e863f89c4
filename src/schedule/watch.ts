// Watches (`/schedule add ... only:new`): a schedule that posts only what is new since its last
// post. A command that can be watched says how in its definition (the contract in
// src/core/watch-contract.ts): from the data its handler formatted, before formatting, it names the
// items with their keys, or the facts of a state, or one value. This file keeps only what every
// watch shares: the memory (a fixed-size digest per key, the least recently seen forgotten first),
// "starting point" and "N new", the diff of two states, and the one entry point the runner calls,
// `applyWatch`. It names no command: a change to a command's text leaves what its watch thinks is
// new as it was.
import { createHash } from 'node:crypto';
import { redactReply, type Reply } from '../core/reply.ts';
import {
  WATCH_KINDS,
  type WatchedReply,
  type WatchFact,
  type WatchItem,
  type WatchKind,
  type WatchSpec,
} from '../core/watch-contract.ts';

/** What a watch posts and remembers. */
export interface WatchResult {
  /** What to post; undefined when nothing is new. */
  reply: Reply | undefined;
  /** The memory to keep once the post is made (opaque: store it as it is). */
  memory: string;
}

/** At most this many keys are remembered per watch (the least recently seen are forgotten). */
export const WATCH_MEMORY_MAX = 1_000;

/** A fact's line is kept to this many characters: the memory stays bounded in bytes. */
const LABEL_MAX = 200;

/**
 * At most this many items are shown in one post: ten fields of a listing (title, company, salary,
 * age, link) stay well within Discord's 25 fields and 6,000 characters a message; the footer says
 * how many more are new beyond those shown.
 */
export const WATCH_SHOWN_MAX = 10;

export function watchMemoryKey(scheduleId: string): string {
  return `watch:${scheduleId}`;
}

/** A key's fixed-size digest (44 characters): what a watch remembers of an item, whatever its length. */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('base64');
}

/** What a watch remembers: digests of items, most recently seen last; or the facts of the last state. */
type Memory = { v: 2; seen: string[] } | { v: 2; facts: [digest: string, label: string][] };

/**
 * The memory as stored: undefined when there is none (the first run, or forgotten); a plain array
 * of keys or lines as earlier versions kept it (matched to today's items by the callers); else
 * the digests.
 */
function parseMemory(raw: string | undefined): Memory | string[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (Array.isArray(parsed)) return parsed.filter((x): x is string => typeof x === 'string');
    const memory = parsed as Partial<{ v: number; seen: unknown; facts: unknown }> | null;
    if (memory?.v === 2 && (Array.isArray(memory.seen) || Array.isArray(memory.facts)))
      return memory as Memory;
  } catch {
    // A memory that cannot be read is no memory: the next post is a starting point again.
  }
  return undefined;
}

/** The digests seen before, oldest first; a plain key of an earlier version is matched to today's item. */
function seenBefore(raw: string | undefined, items: readonly WatchItem[]): string[] | undefined {
  const memory = parseMemory(raw);
  if (memory === undefined) return undefined;
  if (!Array.isArray(memory)) return 'seen' in memory ? memory.seen : memory.facts.map(([d]) => d);
  // Earlier versions kept a listing's link and a forecast day's name as they were shown.
  return memory.map((plain) => {
    const item = items.find((i) => i.key === plain || i.field.name === plain);
    return keyDigest(item ? item.key : plain);
  });
}

/** The facts of the last state; a plain line of an earlier version is matched to today's fact. */
function factsBefore(raw: string | undefined, facts: readonly WatchFact[]): Map<string, string> | undefined {
  const memory = parseMemory(raw);
  if (memory === undefined) return undefined;
  if (!Array.isArray(memory)) return new Map('facts' in memory ? memory.facts : []);
  return new Map(
    memory.map((line) => {
      const fact = facts.find((f) => f.label === line);
      return [keyDigest(fact ? fact.key : line), line];
    }),
  );
}

/** Least recently seen first out: today's items move to the end, in their order; at most WATCH_MEMORY_MAX. */
function remember(before: readonly string[], now: readonly string[]): string {
  const today = new Set(now);
  const seen = [...before.filter((d) => !today.has(d)), ...today].slice(-WATCH_MEMORY_MAX);
  return JSON.stringify({ v: 2, seen } satisfies Memory);
}

function rememberFacts(facts: readonly WatchFact[]): string {
  const kept = facts
    .slice(0, WATCH_MEMORY_MAX)
    .map((f): [string, string] => [keyDigest(f.key), Array.from(f.label).slice(0, LABEL_MAX).join('')]);
  return JSON.stringify({ v: 2, facts: kept } satisfies Memory);
}

const plural = (n: number, [one, many]: readonly [string, string]) => (n === 1 ? one : many);

/** The reply's first embed holding `items` (at most WATCH_SHOWN_MAX), titled `heading`, with its footer. */
function itemsPost(
  reply: Reply,
  heading: string,
  items: readonly WatchItem[],
  spec: { noun?: readonly [string, string]; note?: string },
): Reply['embeds'] {
  const [first = {}] = reply.embeds ?? [];
  const shown = items.slice(0, WATCH_SHOWN_MAX);
  const hidden = items.length - shown.length;
  const more =
    hidden > 0 && spec.noun
      ? `${hidden} more new ${plural(hidden, spec.noun)} ${hidden === 1 ? 'is' : 'are'} not shown.`
      : undefined;
  const footer = [spec.note, more].filter((x) => x !== undefined).join(' ');
  return [
    {
      ...first,
      title: `${heading}: ${first.title ?? ''}`.trim(),
      fields: shown.map((i) => i.field),
      ...(footer ? { footer } : {}),
    },
  ];
}

/** Titles the reply's first embed and its text with `heading`, keeping the rest of the record. */
function headed(reply: Reply, heading: string): Reply {
  const embeds = (reply.embeds ?? []).map((e, i) =>
    i === 0 ? { ...e, title: `${heading}: ${e.title ?? ''}` } : e,
  );
  return { text: `${heading}: ${reply.text}`, embeds };
}

function watchItems(
  reply: Reply,
  items: readonly WatchItem[],
  raw: string | undefined,
  spec: Extract<WatchSpec, { kind: 'items' }>,
): WatchResult {
  const before = seenBefore(raw, items);
  const digests = items.map((i) => keyDigest(i.key));
  const memory = remember(before ?? [], digests);
  if (before === undefined) {
    const heading = 'Starting point';
    return {
      reply: { text: `${heading}: ${reply.text}`, embeds: itemsPost(reply, heading, items, spec) },
      memory,
    };
  }
  const known = new Set(before);
  const fresh = items.filter((_, i) => !known.has(digests[i]!));
  if (fresh.length === 0) return { reply: undefined, memory };
  const heading = `${fresh.length} new`;
  return {
    reply: { text: `${heading}: ${reply.text}`, embeds: itemsPost(reply, heading, fresh, spec) },
    memory,
  };
}

function watchAlerts(
  reply: Reply,
  items: readonly WatchItem[],
  raw: string | undefined,
  alert: string,
): WatchResult {
  const before = seenBefore(raw, items) ?? [];
  const digests = items.map((i) => keyDigest(i.key));
  const memory = remember(before, digests);
  const known = new Set(before);
  const fresh = items.filter((_, i) => !known.has(digests[i]!));
  if (fresh.length === 0) return { reply: undefined, memory };
  const [embed] = itemsPost(reply, `Alert (${alert.trim()})`, fresh, {})!;
  const names = fresh.map((i) => i.field.name).join(', ');
  return { reply: { text: `${embed!.title}: ${names}`, embeds: [{ ...embed, color: 'warning' }] }, memory };
}

function watchChanges(reply: Reply, facts: readonly WatchFact[], raw: string | undefined): WatchResult {
  const before = factsBefore(raw, facts);
  const memory = rememberFacts(facts);
  if (before === undefined) return { reply: headed(reply, 'Starting point'), memory };
  const now = new Set(facts.map((f) => keyDigest(f.key)));
  const lines = [
    ...facts.filter((f) => !before.has(keyDigest(f.key))).map((f) => `+ ${f.label}`),
    ...[...before].filter(([digest]) => !now.has(digest)).map(([, label]) => `− ${label}`),
  ];
  if (lines.length === 0) return { reply: undefined, memory };
  const title = `Changes: ${reply.embeds?.[0]?.title ?? ''}`.trim();
  const description = `\`\`\`diff\n${lines.join('\n')}\n\`\`\``;
  return {
    reply: { text: `${title}: ${lines.join(', ')}`, embeds: [{ title, description, color: 'warning' }] },
    memory,
  };
}

function watchValue(reply: Reply, value: WatchFact | undefined, raw: string | undefined): WatchResult {
  const facts = value ? [value] : [];
  const before = factsBefore(raw, facts);
  const memory = rememberFacts(facts);
  if (before === undefined) return { reply: headed(reply, 'Starting point'), memory };
  const [previous] = before;
  const current = value ? keyDigest(value.key) : undefined;
  if (previous?.[0] === current) return { reply: undefined, memory };
  return { reply: headed(reply, `Changed: ${previous?.[1] ?? 'none'} → ${value?.label ?? 'none'}`), memory };
}

/**
 * The one entry point of a watch: what to post of `reply` (what the watched command answered),
 * given `memory` as stored (undefined or '' on the first run), and the memory to keep once the post
 * is made. `alert` is an alerts watch's condition. A reply of a command that has no watch is posted
 * as it is and the memory kept.
 */
export function applyWatch(reply: Reply, memory: string | undefined, alert?: string): WatchResult {
  const watch = (reply as WatchedReply).watch;
  if (!watch) return { reply, memory: memory ?? '' };
  const view = watch.view(alert);
  let result: WatchResult;
  if (view.kind === 'items' && watch.spec.kind === 'items')
    result = watchItems(reply, view.items, memory, watch.spec);
  else if (view.kind === 'alerts') result = watchAlerts(reply, view.items, memory, alert ?? '');
  else if (view.kind === 'changes') result = watchChanges(reply, view.facts, memory);
  else if (view.kind === 'value') result = watchValue(reply, view.value, memory);
  else result = { reply, memory: memory ?? '' };
  return { ...result, reply: result.reply && redactReply(result.reply) };
}

/**
 * Why /schedule refuses `only:new` (and `alert:`) for a command line, one sentence; undefined when
 * the watch may be added. `watchable` is every command with a watch, for the sentence that names them.
 */
export function refuseWatch(
  command: { name: string; watch?: WatchSpec },
  line: string,
  isWatch: boolean,
  alert: string | undefined,
  watchable: readonly { name: string; watch?: WatchSpec }[],
): string | undefined {
  const named = (kinds: readonly WatchKind[]) =>
    WATCH_KINDS.filter((k) => kinds.includes(k))
      .flatMap((k) => watchable.filter((c) => c.watch?.kind === k))
      .map((c) => `/${c.name}`);
  const alerting = named(['alerts']);
  const watch = isWatch ? command.watch : undefined;
  if (isWatch && !watch) {
    const names = named(WATCH_KINDS);
    const which = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}` : names.join('');
    return `/${command.name} cannot be a watch (only:new): only ${which} can post just what is new.`;
  }
  const refused = watch?.refuse?.(line);
  if (refused !== undefined) return refused;
  if (watch?.kind !== 'alerts') {
    if (alert === undefined) return undefined;
    const list = alerting.join(' or ');
    return `alert: is for a ${list} watch; add only:new and schedule ${list}.`;
  }
  if (alert !== undefined && watch.readsAlert(alert)) return undefined;
  const not = alert === undefined ? '' : `, not "${alert}"`;
  return `A /${command.name} watch needs ${watch.alertForms}${not}.`;
}
