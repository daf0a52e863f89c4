// The watch contract (`/schedule add ... only:new`): what a command declares in its definition
// (`watch` in defineCommand) to say how a watch tells what is new, from the data its handler
// formatted (the items with their keys, the facts of a state, one value, or the items that meet an
// `alert:`), and the view of that data that travels with its reply. The engine that keeps the
// memory and posts "starting point" and "N new" is src/schedule/watch.ts, which reads this.
import type { EmbedField, Reply } from './reply.ts';

/** One thing a watch tells apart: its key, from the command's data, and its field as the reply shows it. */
export interface WatchItem {
  key: string;
  field: EmbedField;
}

/** One fact of a watched state: its key, from the command's data, and the line that shows it. */
export interface WatchFact {
  key: string;
  label: string;
}

/**
 * What a watch compares, by kind, in the order /schedule names them:
 * - `items`: a listing; the first post is the starting point, then only items not posted before.
 * - `changes`: a state made of facts; the first post is the starting point, then the facts added
 *   (+) and gone (−).
 * - `value`: one value; the first post is the starting point, then the record again when it changed.
 * - `alerts`: the items that meet a condition (`alert:`); each is posted once, when it first does.
 */
export type WatchView =
  | { kind: 'items'; items: WatchItem[] }
  | { kind: 'changes'; facts: WatchFact[] }
  | { kind: 'value'; value: WatchFact | undefined }
  | { kind: 'alerts'; items: WatchItem[] };

export type WatchKind = WatchView['kind'];
export const WATCH_KINDS: readonly WatchKind[] = ['items', 'changes', 'value', 'alerts'];

/** What a command's definition says of its watch, apart from how its data becomes a view. */
interface WatchRules {
  /** Refuses a watch of this command line in one sentence; undefined when it may be watched. */
  refuse?(line: string): string | undefined;
  /** The argument text a watch runs with, from the one its creator typed (e.g. the largest page). */
  input?(args: string): string;
}

/** The `watch` of a command's definition, over `D`, the data its handler hands over with its reply. */
export type CommandWatch<D> = WatchRules &
  (
    | {
        kind: 'items';
        items(data: D): WatchItem[];
        /** The item in words, one and several: "listing", "listings". */
        noun: readonly [string, string];
        /** Said in the footer of every post (e.g. that the watch reads the first page only). */
        note?: string;
      }
    | { kind: 'changes'; facts(data: D): WatchFact[] }
    | { kind: 'value'; value(data: D): WatchFact | undefined }
    | {
        kind: 'alerts';
        /** The alert conditions in words, for the refusal: `alert:rain or alert:"below 0"`. */
        alertForms: string;
        /** Whether `alert` is a condition this command's watch can read. */
        readsAlert(alert: string): boolean;
        /** The items that meet `alert`. */
        items(data: D, alert: string): WatchItem[];
      }
  );

/** A command's watch as the rest of herald sees it (the data it maps is the handler's business). */
export type WatchSpec = WatchRules &
  (
    | { kind: 'items'; noun: readonly [string, string]; note?: string }
    | { kind: 'changes' | 'value' }
    | { kind: 'alerts'; alertForms: string; readsAlert(alert: string): boolean }
  );

/** A reply as a watchable command leaves it: with the view of its data that its watch compares. */
export interface WatchedReply extends Reply {
  /** Never shown: the command's data as its watch sees it (`alert` for an alerts watch). */
  readonly watch?: { spec: WatchSpec; view(alert: string | undefined): WatchView };
}

/** An empty view of `spec`'s kind: the command answered without data to watch (e.g. "not found"). */
export function emptyView(spec: WatchSpec): WatchView {
  if (spec.kind === 'changes') return { kind: 'changes', facts: [] };
  if (spec.kind === 'value') return { kind: 'value', value: undefined };
  return { kind: spec.kind, items: [] };
}
