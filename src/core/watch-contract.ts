// The watch contract (`/schedule add ... only:new`): what a command declares in its definition
// (`watch` in defineCommand) to say how a watch tells what is new. Every watch has one shape: it
// names keyed items from the data its handler formatted, and posts either the items it has not
// posted before (`new`) or what was added, changed and gone since its last post (`diff`). A
// condition (`alert:`) picks the items that meet it. The engine that keeps the memory and posts
// is src/schedule/watch.ts, which reads this.
import type { EmbedField, Reply } from './reply.ts';

/** One thing a watch tells apart, from the command's data. */
export interface WatchItem {
  /** What makes it the same item from one run to the next (a listing's link, a day's date). */
  key: string;
  /** The line that names it: a diff's line, and what a diff compares for "changed". */
  text: string;
  /** How a post of new items shows it (a field named by its text when absent). */
  field?: EmbedField;
}

/**
 * - `new`: the first post is the starting point, then only items not posted before.
 * - `diff`: the first post is the record, then the items added (+), changed (~) and gone (−).
 */
type WatchMode = 'new' | 'diff';

/** What a command's definition says of its watch, apart from how its data becomes items. */
export interface WatchSpec {
  mode: WatchMode;
  /** The item in words, one and several ("listing", "listings"), for "N more new … not shown". */
  noun?: readonly [string, string];
  /** Said in the footer of every post (e.g. that the watch reads the first page only). */
  note?: string;
  /** A watch that needs `alert:`: its conditions in words, for the refusal, and which it reads. */
  alert?: { forms: string; reads(alert: string): boolean };
  /** Refuses a watch of this command line in one sentence; undefined when it may be watched. */
  refuse?(line: string): string | undefined;
  /** The argument text a watch runs with, from the one its creator typed (e.g. the largest page). */
  input?(args: string): string;
}

/** The `watch` of a command's definition, over `D`, the data its handler hands over with its reply. */
export interface CommandWatch<D> extends WatchSpec {
  /** The items in `data` (those meeting `alert`, for a watch that needs one). */
  items(data: D, alert: string | undefined): WatchItem[];
}

/** A reply as a watchable command leaves it: with the items of its data that its watch compares. */
export interface WatchedReply extends Reply {
  /** Never shown: the command's items (none when it answered without data, e.g. "not found"). */
  readonly watch?: { spec: WatchSpec; items(alert: string | undefined): WatchItem[] };
}
