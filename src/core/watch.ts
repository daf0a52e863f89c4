// Watches (`/schedule add ... only:new`): a schedule that posts only what is new since its last
// post. What a watch has posted is kept as keys (bounded) in the store with the schedule; the
// runner saves them only once the slot is posted, so a failed slot loses nothing new.
import { MAX_RESULTS_PER_PAGE } from '../domain/job-countries.ts';
import type { Embed, EmbedField, Reply } from './reply.ts';

/** The commands whose replies have items a watch can tell apart, and what an item is. */
export const WATCHABLE: Readonly<Record<string, string>> = {
  jobs: 'listings not posted before',
  host: 'ports opened or closed, services changed, vulnerabilities added or gone',
  'email status': 'a change of the last event',
  forecast: 'days that newly meet the alert: condition',
};

/** `alert:` of a /forecast watch: a condition, or a temperature threshold in the command's units. */
export type ForecastAlert = { kind: 'rain' | 'snow' } | { kind: 'below' | 'above'; value: number };

/** Reads `rain`, `snow`, `below 0`, `above 30`; undefined when it is none of them. */
export function parseAlert(text: string): ForecastAlert | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (t === 'rain' || t === 'snow') return { kind: t };
  const m = /^(below|above) (-?\d+(?:\.\d+)?)$/.exec(t);
  return m ? { kind: m[1] as 'below' | 'above', value: Number(m[2]) } : undefined;
}

const CONDITION_RE = { rain: /rain|drizzle|thunder/i, snow: /snow|sleet/i } as const;

function dayMeets(field: EmbedField, alert: ForecastAlert): boolean {
  const [condition = '', temps = ''] = field.value.split('\n');
  if (!('value' in alert)) return CONDITION_RE[alert.kind].test(condition);
  const values = [...temps.replaceAll('−', '-').matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  if (values.length === 0) return false;
  return alert.kind === 'below' ? Math.min(...values) < alert.value : Math.max(...values) > alert.value;
}

/** /forecast with alert: each forecast day posted once, when it first meets the alert. */
function watchForecast(reply: Reply, memory: readonly string[] | undefined, alertText: string): WatchResult {
  const alert = parseAlert(alertText);
  const embed = reply.embeds?.[0];
  if (!alert || !embed) return { reply: undefined, memory: [...(memory ?? [])] };
  const seen = new Set(memory ?? []);
  const fresh = (embed.fields ?? []).filter((f) => dayMeets(f, alert) && !seen.has(f.name));
  const merged = [...seen, ...fresh.map((f) => f.name)].slice(-WATCH_MEMORY_MAX);
  if (fresh.length === 0) return { reply: undefined, memory: merged };
  const title = `Alert (${alertText.trim()}): ${embed.title ?? 'forecast'}`;
  const days = fresh.map((f) => f.name).join(', ');
  return {
    reply: { text: `${title}: ${days}`, embeds: [{ ...embed, title, fields: fresh, color: 'warning' }] },
    memory: merged,
  };
}

/** At most this many keys are remembered per watch (the oldest are forgotten). */
export const WATCH_MEMORY_MAX = 1_000;

/** A listings watch reads the command's first page only, as large as the provider allows, and says so. */
export const FIRST_PAGE_NOTE = `This watch reads the first page of results only (up to ${MAX_RESULTS_PER_PAGE} listings).`;

/**
 * At most this many listings are shown in one post: ten fields of a listing (title, company, salary,
 * age, link) stay well within Discord's 25 fields and 6,000 characters a message; the footer says
 * how many more are new beyond those shown.
 */
export const WATCH_SHOWN_MAX = 10;

/**
 * The command line a watch runs: a /jobs watch asks for the provider's largest page (unless its
 * creator named a size), so that one read of the first page sees as many listings as it can.
 */
export function watchCommandLine(line: string): string {
  if (watchedCommand(line) !== 'jobs' || /(^|\s)size:/i.test(line)) return line;
  return `${line} size:${MAX_RESULTS_PER_PAGE}`;
}

/** Keeps the first WATCH_SHOWN_MAX fields across the embeds; returns them and how many were left out. */
function showAtMost(embeds: readonly Embed[]): { embeds: Embed[]; hidden: number } {
  let room = WATCH_SHOWN_MAX;
  let hidden = 0;
  const out: Embed[] = [];
  for (const e of embeds) {
    const fields = e.fields ?? [];
    const shown = fields.slice(0, Math.max(0, room));
    hidden += fields.length - shown.length;
    room -= shown.length;
    if (shown.length > 0 || fields.length === 0) out.push({ ...e, fields: shown });
  }
  return { embeds: out, hidden };
}

/** The footer of a listings post: the first-page note, and how many new ones are not shown. */
function listingsFooter(hidden: number): string {
  if (hidden === 0) return FIRST_PAGE_NOTE;
  return `${FIRST_PAGE_NOTE} ${hidden} more new ${hidden === 1 ? 'listing is' : 'listings are'} not shown.`;
}

export function watchMemoryKey(scheduleId: string): string {
  return `watch:${scheduleId}`;
}

/** A listing's identity: its link (which carries the listing id), else its title and first line. */
function itemKey(field: EmbedField): string {
  const lines = field.value.split('\n').map((l) => l.trim());
  const link = lines.find((l) => /^https?:\/\//.test(l));
  if (link !== undefined) return link;
  return `${field.name.replace(/^\d+\.\s*/, '').trim()}\u0000${lines[0] ?? ''}`;
}

export interface WatchResult {
  /** What to post; undefined when nothing is new. */
  reply: Reply | undefined;
  /** The memory to keep once the post is made. */
  memory: string[];
}

/**
 * Keeps only the items of `reply` not in `memory`. Without memory (the first run) everything is
 * posted, titled as the starting point.
 */
function watchListings(reply: Reply, memory: readonly string[] | undefined): WatchResult {
  const seen = new Set(memory ?? []);
  const kept: Embed[] = [];
  const keys: string[] = [];
  let fresh = 0;
  for (const embed of reply.embeds ?? []) {
    const fields = (embed.fields ?? []).filter((f) => {
      const key = itemKey(f);
      keys.push(key);
      return !seen.has(key);
    });
    fresh += fields.length;
    if (fields.length > 0) kept.push({ ...embed, fields });
  }
  const merged = [...new Set([...(memory ?? []), ...keys])].slice(-WATCH_MEMORY_MAX);
  if (memory === undefined) {
    const { embeds, hidden } = showAtMost(reply.embeds ?? []);
    const titled = embeds.map((e, i) =>
      i === 0
        ? { ...e, title: `Starting point: ${e.title ?? 'what is there now'}`, footer: listingsFooter(hidden) }
        : e,
    );
    return { reply: { text: `Starting point: ${reply.text}`, embeds: titled }, memory: merged };
  }
  if (fresh === 0) return { reply: undefined, memory: merged };
  const what = fresh === 1 ? '1 new' : `${fresh} new`;
  const { embeds, hidden } = showAtMost(kept);
  const titled = embeds.map((e, i) =>
    i === 0 ? { ...e, title: `${what}: ${e.title ?? ''}`.trim(), footer: listingsFooter(hidden) } : e,
  );
  return { reply: { text: `${what}: ${reply.text}`, embeds: titled }, memory: merged };
}

const CVE_RE = /CVE-\d{4}-\d+/gi;

/** A host record's facts: one per service line ("443/tcp nginx 1.18") and per vulnerability id. */
function hostFacts(reply: Reply): string[] {
  const embed = reply.embeds?.[0];
  const code = /```\n?([\s\S]*?)```/.exec(embed?.description ?? '')?.[1] ?? '';
  const services = code
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '' && !l.startsWith('…'));
  const vulnField = embed?.fields?.find((f) => /vulnerab/i.test(f.name))?.value ?? '';
  const vulns = [...vulnField.matchAll(CVE_RE)].map((m) => m[0].toUpperCase());
  return [...new Set([...services, ...vulns])];
}

/** /host: the first record, then a diff of it against the last one posted (+ added, − gone). */
function watchHost(reply: Reply, memory: readonly string[] | undefined): WatchResult {
  const facts = hostFacts(reply);
  if (memory === undefined) {
    const embeds = (reply.embeds ?? []).map((e, i) =>
      i === 0 ? { ...e, title: `Starting point: ${e.title ?? 'the host record'}` } : e,
    );
    return { reply: { text: `Starting point: ${reply.text}`, embeds }, memory: facts };
  }
  const before = new Set(memory);
  const now = new Set(facts);
  const lines = [
    ...facts.filter((f) => !before.has(f)).map((f) => `+ ${f}`),
    ...memory.filter((f) => !now.has(f)).map((f) => `− ${f}`),
  ];
  if (lines.length === 0) return { reply: undefined, memory: facts };
  const title = `Changes: ${reply.embeds?.[0]?.title ?? 'host'}`;
  const description = `\`\`\`diff\n${lines.join('\n')}\n\`\`\``;
  return {
    reply: { text: `${title}: ${lines.join(', ')}`, embeds: [{ title, description, color: 'warning' }] },
    memory: facts,
  };
}

/**
 * What a watch posts of `reply` (the reply of the command `command`, e.g. "jobs"), given what it
 * remembers; without memory (the first run) everything is posted, titled as the starting point.
 */
export function watchReply(
  command: string,
  reply: Reply,
  memory: readonly string[] | undefined,
  alert?: string,
): WatchResult {
  if (command === 'host') return watchHost(reply, memory);
  if (command === 'email status') return watchEvent(reply, memory);
  if (command === 'forecast') return watchForecast(reply, memory, alert ?? '');
  return watchListings(reply, memory);
}

/** The command a command line runs, as WATCHABLE names it: "jobs", "email status". */
export function watchedCommand(line: string): string {
  const [first = '', second = ''] = line
    .replace(/^\s*\//, '')
    .toLowerCase()
    .split(/\s+/);
  return WATCHABLE[`${first} ${second}`] !== undefined ? `${first} ${second}` : first;
}

/** /email status: posted again only when its last event changed (`delivered` → `bounced`). */
function watchEvent(reply: Reply, memory: readonly string[] | undefined): WatchResult {
  const embed = reply.embeds?.[0];
  const event = embed?.fields?.find((f) => /last event/i.test(f.name))?.value ?? reply.text;
  const before = memory?.[0];
  if (before === event) return { reply: undefined, memory: [event] };
  const title = before === undefined ? 'Starting point' : `Changed: ${before} → ${event}`;
  const embeds = (reply.embeds ?? []).map((e, i) =>
    i === 0 ? { ...e, title: `${title}: ${e.title ?? ''}` } : e,
  );
  return { reply: { text: `${title}: ${reply.text}`, embeds }, memory: [event] };
}
