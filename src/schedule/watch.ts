// Watches (`only:new`): a schedule that posts only what is new. A watchable command names keyed
// items (src/core/watch-contract.ts), posted as new only or as a diff; this file keeps what every
// watch shares: the memory (a digest per key, the least recently seen forgotten first; a diff's
// items with their lines), the posts, and `applyWatch`. It names no command.
import { createHash } from 'node:crypto';
import { redactReply, type Embed, type Reply } from '../core/reply.ts';
import type { WatchedReply, WatchItem, WatchSpec } from '../core/watch-contract.ts';
import type { Said } from '../errors.ts';
import { formatList } from '../format.ts';
import type { Store } from '../store/store.ts';

export interface WatchResult {
  /** Undefined when nothing is new. */
  reply: Reply | undefined;
  /** To keep once the post is made, as it is. */
  memory: string;
}

/** Keys remembered per watch. */
export const WATCH_MEMORY_MAX = 1_000;

/** A diff's remembered line is cut to this, so that the memory stays bounded in bytes. */
const TEXT_MAX = 200;

/** Items shown in one post: well within Discord's 25 fields and 6,000 characters a message. */
export const WATCH_SHOWN_MAX = 10;

export function watchMemoryKey(scheduleId: string): string {
  return `watch:${scheduleId}`;
}

/** What a watch remembers of a key, 44 characters whatever its length. */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('base64');
}

/** As stored: digests, most recently seen last (`new`); or the items with their lines (`diff`). */
type Memory = { v: 2; seen: string[] } | { v: 2; facts: [digest: string, text: string][] };

type Entry = readonly [digest: string, text?: string];

const cut = (text: string) => Array.from(text).slice(0, TEXT_MAX).join('');

/** A diff's memory of `items`, as stored: each key's digest with its line. */
const factsMemory = (items: readonly Pick<WatchItem, 'key' | 'text'>[]) =>
  JSON.stringify({ v: 2, facts: items.map((i) => [keyDigest(i.key), cut(i.text)]) } satisfies Memory);

/** The entries of a stored memory; undefined on the first run or when it cannot be read. */
function readMemory(raw: string | undefined): Entry[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  try {
    const memory = JSON.parse(raw) as Partial<{ v: number; seen: unknown; facts: unknown }> | null;
    if (memory?.v === 2 && Array.isArray(memory.seen)) return (memory.seen as string[]).map((d) => [d]);
    if (memory?.v === 2 && Array.isArray(memory.facts)) return memory.facts as Entry[];
  } catch {
    // No memory: the next post is a starting point again.
  }
  return undefined;
}

/** Each item's remembered entry (by key, else by line: a key of another version), or undefined when new. */
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

/** The post of `items` (at most WATCH_SHOWN_MAX shown), the reply's first embed titled `heading`. */
function itemsPost(reply: Reply, heading: string, items: readonly WatchItem[], spec: WatchSpec): Reply {
  const [first = {}] = reply.embeds ?? [];
  const shown = items.slice(0, WATCH_SHOWN_MAX);
  const hidden = items.length - shown.length;
  const [one, many] = spec.noun ?? ['item', 'items'];
  const more =
    hidden > 0 ? `${hidden} more new ${hidden === 1 ? `${one} is` : `${many} are`} not shown.` : '';
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

/** `new`: the items not remembered; the first post is the starting point. */
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
  const memory = factsMemory(items.slice(0, WATCH_MEMORY_MAX));
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

/** What to post of a watched command's `reply` given its `memory` ('' on the first run), and the memory to keep. */
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
 * Converts, once at start, the watch memories still kept as a JSON array of plain keys: each becomes
 * an item remembered by its digest and line, so that no watch posts again what it posted. Idempotent.
 */
export async function convertOldWatchMemories(
  store: Pick<Store, 'getValue' | 'setValue'>,
  scheduleIds: readonly string[],
): Promise<number> {
  let converted = 0;
  for (const id of scheduleIds) {
    const raw = await store.getValue(watchMemoryKey(id));
    let plain: unknown;
    try {
      plain = raw?.startsWith('[') ? JSON.parse(raw) : undefined;
    } catch {
      // Not the old format either: no memory, as applyWatch reads it.
    }
    if (!Array.isArray(plain)) continue;
    const keys = plain.filter((p): p is string => typeof p === 'string').slice(-WATCH_MEMORY_MAX);
    await store.setValue(watchMemoryKey(id), factsMemory(keys.map((key) => ({ key, text: key }))));
    converted++;
  }
  return converted;
}

/** Why /schedule refuses `only:new` or `alert:` for a command line, one sentence; `watchable` are named in it. */
export function refuseWatch(
  command: { name: string; watch?: WatchSpec },
  line: string,
  isWatch: boolean,
  alert: string | undefined,
  watchable: readonly { name: string; watch?: WatchSpec }[],
): Said | undefined {
  const watch = isWatch ? command.watch : undefined;
  if (isWatch && !watch) {
    const names = watchable.flatMap((c) => (c.watch ? [`/${c.name}`] : [])).sort();
    return (t, locale) =>
      t('scheduleRefusals:watch.notWatchable', {
        command: command.name,
        which: formatList(names, 'and', locale),
      });
  }
  // The command's own refusal, in its own words.
  const refused = watch?.refuse?.(line);
  if (refused !== undefined) return () => refused;
  if (!watch?.alert) {
    if (alert === undefined) return undefined;
    const names = watchable.flatMap((c) => (c.watch?.alert ? [`/${c.name}`] : []));
    return (t, locale) => t('scheduleRefusals:watch.alertFor', { list: formatList(names, 'or', locale) });
  }
  if (alert !== undefined && watch.alert.reads(alert)) return undefined;
  const { forms } = watch.alert;
  return (t) =>
    alert === undefined
      ? t('scheduleRefusals:watch.needsAlert', { command: command.name, forms })
      : t('scheduleRefusals:watch.needsAlertNot', { command: command.name, forms, alert });
}
