// Watches (`/schedule add ... only:new`): a schedule that posts only what is new since its last
// post. A command that can be watched says how in its definition (the contract in
// src/core/watch-contract.ts): from the data its handler formatted it names keyed items, posted as
// new only or as a diff. This file keeps what every watch shares: the memory (a fixed-size digest
// per key, the least recently seen forgotten first; a diff's last items with their lines), the
// posts, and the one entry point the runner calls, `applyWatch`. It names no command: a change to
// a command's text leaves what its watch thinks is new as it was.
import { createHash } from 'node:crypto';
import { redactReply, type Embed, type Reply } from '../core/reply.ts';
import type { WatchedReply, WatchItem, WatchSpec } from '../core/watch-contract.ts';

/** What a watch posts and remembers. */
export interface WatchResult {
  /** What to post; undefined when nothing is new. */
  reply: Reply | undefined;
  /** The memory to keep once the post is made (opaque: store it as it is). */
  memory: string;
}

/** At most this many keys are remembered per watch (the least recently seen are forgotten). */
export const WATCH_MEMORY_MAX = 1_000;

/** A diff remembers an item's line cut to this many characters: the memory stays bounded in bytes. */
const TEXT_MAX = 200;

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

/** As stored: digests of keys, most recently seen last (`new`); or the last items with their lines (`diff`). */
type Memory = { v: 2; seen: string[] } | { v: 2; facts: [digest: string, text: string][] };

/** A remembered item: its key's digest, and its line when the memory keeps lines. */
type Entry = readonly [digest: string, text?: string];

const cut = (text: string) => Array.from(text).slice(0, TEXT_MAX).join('');

/** The entries of a stored memory; undefined when there is none (the first run) or it cannot be read. */
function readMemory(raw: string | undefined): Entry[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  try {
    const memory = JSON.parse(raw) as Partial<{ v: number; seen: unknown; facts: unknown }> | null;
    if (memory?.v === 2 && Array.isArray(memory.seen)) return (memory.seen as string[]).map((d) => [d]);
    if (memory?.v === 2 && Array.isArray(memory.facts)) return memory.facts as Entry[];
  } catch {
    // A memory that cannot be read is no memory: the next post is a starting point again.
  }
  return undefined;
}

/**
 * Each item's remembered entry, or undefined when it is new: the entry of its key, else one whose
 * line is the item's (the same item under a key of another version: not new, and not posted again).
 */
function matchEntries(items: readonly WatchItem[], entries: readonly Entry[]): (Entry | undefined)[] {
  const byDigest = new Map(entries.map((e) => [e[0], e]));
  const matched = items.map((i) => byDigest.get(keyDigest(i.key)));
  const taken = new Set(matched);
  const byText = new Map(entries.filter((e) => !taken.has(e) && e[1] !== undefined).map((e) => [e[1], e]));
  return matched.map((entry, i) => {
    if (entry) return entry;
    const same = byText.get(cut(items[i]!.text));
    byText.delete(cut(items[i]!.text));
    return same;
  });
}

const plural = (n: number, [one, many]: readonly [string, string]) => (n === 1 ? one : many);

/** The post of `items` (at most WATCH_SHOWN_MAX shown), the reply's first embed titled `heading`. */
function itemsPost(reply: Reply, heading: string, items: readonly WatchItem[], spec: WatchSpec): Reply {
  const [first = {}] = reply.embeds ?? [];
  const shown = items.slice(0, WATCH_SHOWN_MAX);
  const hidden = items.length - shown.length;
  const noun = spec.noun ?? ['item', 'items'];
  const more =
    hidden > 0 ? `${hidden} more new ${plural(hidden, noun)} ${hidden === 1 ? 'is' : 'are'} not shown.` : '';
  const footer = [spec.note ?? '', more].filter((x) => x !== '').join(' ');
  const embed: Embed = {
    ...first,
    title: `${heading}: ${first.title ?? ''}`.trim(),
    fields: shown.map((i) => i.field ?? { name: i.text, value: '\u200b' }),
    ...(footer ? { footer } : {}),
    ...(spec.alert ? { color: 'warning' } : {}),
  };
  return { text: `${heading}: ${reply.text}`, embeds: [embed] };
}

/** `new`: the items not remembered; the first post (no memory) is the starting point. */
function watchNew(
  reply: Reply,
  items: readonly WatchItem[],
  before: Entry[] | undefined,
  spec: WatchSpec,
  alert: string | undefined,
): WatchResult {
  const matched = matchEntries(items, before ?? []);
  const digests = items.map((i) => keyDigest(i.key));
  const today = new Set(digests);
  // Least recently seen first out: today's items move to the end, in their order.
  const seen = [...(before ?? []).map((e) => e[0]).filter((d) => !today.has(d)), ...today];
  const memory = JSON.stringify({ v: 2, seen: seen.slice(-WATCH_MEMORY_MAX) } satisfies Memory);
  const fresh = items.filter((_, i) => matched[i] === undefined);
  // An alert that no item meets says nothing, even on the first run.
  if (fresh.length === 0 && (before !== undefined || alert !== undefined))
    return { reply: undefined, memory };
  const heading =
    alert !== undefined ? `Alert (${alert.trim()})` : before ? `${fresh.length} new` : 'Starting point';
  return { reply: itemsPost(reply, heading, fresh, spec), memory };
}

/** `diff`: the first post is the reply as it is; then the items added (+), changed (~) and gone (−). */
function watchDiff(reply: Reply, items: readonly WatchItem[], before: Entry[] | undefined): WatchResult {
  const facts = items
    .slice(0, WATCH_MEMORY_MAX)
    .map((i): [string, string] => [keyDigest(i.key), cut(i.text)]);
  const memory = JSON.stringify({ v: 2, facts } satisfies Memory);
  if (before === undefined) {
    const embeds = (reply.embeds ?? []).map((e, i) =>
      i === 0 ? { ...e, title: `Starting point: ${e.title ?? ''}` } : e,
    );
    return { reply: { text: `Starting point: ${reply.text}`, embeds }, memory };
  }
  const matched = matchEntries(items, before);
  const added = items.filter((_, i) => matched[i] === undefined).map((i) => `+ ${i.text}`);
  const changed = items.flatMap((item, i) => {
    const was = matched[i]?.[1];
    return was !== undefined && was !== cut(item.text) ? [`~ ${was} → ${item.text}`] : [];
  });
  const kept = new Set(matched);
  const gone = before.filter((e) => !kept.has(e)).map((e) => `− ${e[1] ?? ''}`);
  const lines = [...added, ...changed, ...gone];
  if (lines.length === 0) return { reply: undefined, memory };
  const title = `Changes: ${reply.embeds?.[0]?.title ?? ''}`.trim();
  const description = `\`\`\`diff\n${lines.join('\n')}\n\`\`\``;
  return {
    reply: { text: `${title}: ${lines.join(', ')}`, embeds: [{ title, description, color: 'warning' }] },
    memory,
  };
}

/**
 * The one entry point of a watch: what to post of `reply` (what the watched command answered),
 * given `memory` as stored (undefined or '' on the first run), and the memory to keep once the post
 * is made. `alert` is the watch's condition, when it has one. A reply of a command that has no
 * watch is posted as it is and the memory kept.
 */
export function applyWatch(reply: Reply, memory: string | undefined, alert?: string): WatchResult {
  const watch = (reply as WatchedReply).watch;
  if (!watch) return { reply, memory: memory ?? '' };
  const items = watch.items(alert);
  const before = readMemory(memory);
  const result =
    watch.spec.mode === 'diff'
      ? watchDiff(reply, items, before)
      : watchNew(reply, items, before, watch.spec, alert);
  return { ...result, reply: result.reply && redactReply(result.reply) };
}

/**
 * Converts, once at start, every watch memory of `scheduleIds` still kept as versions before
 * digests kept it (a JSON array of plain keys or lines): each plain string becomes a remembered
 * item, its digest as the key and itself as the line, so that no watch posts again what it posted
 * before. Idempotent: a converted memory is not an array, and is left as it is. Returns how many
 * it converted.
 */
export async function convertOldWatchMemories(
  store: {
    getValue(key: string): Promise<string | undefined>;
    setValue(key: string, value: string): Promise<boolean>;
  },
  scheduleIds: readonly string[],
): Promise<number> {
  let converted = 0;
  for (const id of scheduleIds) {
    const raw = await store.getValue(watchMemoryKey(id));
    let plain: unknown;
    try {
      plain = raw?.startsWith('[') ? JSON.parse(raw) : undefined;
    } catch {
      // Not readable as the old format either: no memory, as applyWatch reads it.
    }
    if (!Array.isArray(plain)) continue;
    const facts = plain
      .filter((p): p is string => typeof p === 'string')
      .slice(-WATCH_MEMORY_MAX)
      .map((p): [string, string] => [keyDigest(p), cut(p)]);
    await store.setValue(watchMemoryKey(id), JSON.stringify({ v: 2, facts } satisfies Memory));
    converted++;
  }
  return converted;
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
  const watch = isWatch ? command.watch : undefined;
  if (isWatch && !watch) {
    const names = watchable.flatMap((c) => (c.watch ? [`/${c.name}`] : [])).sort();
    const which = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}` : names.join('');
    return `/${command.name} cannot be a watch (only:new): only ${which} can post just what is new.`;
  }
  const refused = watch?.refuse?.(line);
  if (refused !== undefined) return refused;
  if (!watch?.alert) {
    if (alert === undefined) return undefined;
    const list = watchable.flatMap((c) => (c.watch?.alert ? [`/${c.name}`] : [])).join(' or ');
    return `alert: is for a ${list} watch; add only:new and schedule ${list}.`;
  }
  if (alert !== undefined && watch.alert.reads(alert)) return undefined;
  const not = alert === undefined ? '' : `, not "${alert}"`;
  return `A /${command.name} watch needs ${watch.alert.forms}${not}.`;
}
