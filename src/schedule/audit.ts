// Who changed which schedule, from where and when: each add, pause, resume, skip, unskip, remove
// and import is one entry in the store's logs, on every backend, carried by `npm run store`. Schedule admins read the entries
// of the Discord server or Slack workspace they type in, with those of the schedules that belong to
// the deployment (no workspace), as /schedule list scopes them; the console operator reads all.
import { refusal } from '../errors.ts';
import type { Actor } from '../core/actor.ts';
import type { Surface } from '../core/command.ts';
import { workspaceOf } from '../core/channel.ts';
import type { Store } from '../store/store.ts';
import type { ScheduleRecord } from './schedules.ts';
import { isScheduleAdmin, type ScheduleAdmins, type Viewer } from './visibility.ts';

export type AuditAction = 'add' | 'pause' | 'resume' | 'skip' | 'unskip' | 'remove' | 'import';

/** Where a change came from: a chat surface, the console, or `npm run store`. */
type ChangeSource = Surface | 'console' | 'store';

export interface AuditEntry {
  /** The log of the workspace it belongs to (absent: the deployment's), so a move can place it again. */
  scope?: string;
  at: number;
  action: AuditAction;
  scheduleId: string;
  by: Pick<Actor, 'platform' | 'id' | 'displayName'>;
  via: ChangeSource;
}

/** Entries kept per log; a reader sees the latest AUDIT_SHOWN of theirs. */
const AUDIT_KEPT = 1_000;
export const AUDIT_SHOWN = 50;

const ALL = 'audit:all';
const DEPLOYMENT = 'audit:deployment';
/** The scope of a Discord server's or Slack workspace's entries; none for the deployment's. */
const scopeOf = (platform: string, workspace: string | undefined) =>
  workspace === undefined ? undefined : `${platform}:${workspace}`;
const logOf = (scope: string | undefined) => (scope === undefined ? DEPLOYMENT : `audit:${scope}`);

/** The source a chat actor's change has when its surface did not say: typed, or the console. */
export const sourceOf = (actor: Actor, surface?: Surface): ChangeSource =>
  actor.platform === 'console' ? 'console' : (surface ?? 'typed');

/** Records one change of `record` by `actor`: in the log of its workspace (or the deployment's) and in the whole's. */
export async function recordAudit(
  store: Store,
  record: ScheduleRecord,
  change: { action: AuditAction; actor: Actor; via: ChangeSource; at: number },
): Promise<void> {
  const { actor } = change;
  const scope = scopeOf(record.creator.platform, record.home?.workspaceId);
  await append(store, {
    ...(scope === undefined ? {} : { scope }),
    at: change.at,
    action: change.action,
    scheduleId: record.id,
    by: { platform: actor.platform, id: actor.id, displayName: actor.displayName },
    via: change.via,
  });
}

function append(store: Store, entry: AuditEntry): Promise<unknown> {
  const value = JSON.stringify(entry);
  return Promise.all([
    store.appendLog(logOf(entry.scope), value, AUDIT_KEPT),
    store.appendLog(ALL, value, AUDIT_KEPT),
  ]);
}

/** The whole audit, oldest first, for `npm run store -- export`. */
export async function exportAudit(store: Store): Promise<AuditEntry[]> {
  return (await store.readLog(ALL, AUDIT_KEPT)).map((value) => JSON.parse(value) as AuditEntry).reverse();
}

/** Adds the entries of an export that `store` does not hold yet, in their order: importing twice adds nothing. */
export async function importAudit(store: Store, entries: readonly AuditEntry[]): Promise<number> {
  const held = new Set(await store.readLog(ALL, AUDIT_KEPT));
  const missing = entries.filter((e) => !held.has(JSON.stringify(e)));
  for (const entry of missing) await append(store, entry);
  return missing.length;
}

/** The latest entries `viewer` may read, newest first, of schedule `id` when given. */
export async function readAudit(
  store: Store,
  admins: ScheduleAdmins,
  viewer: Viewer,
  id?: string,
): Promise<AuditEntry[]> {
  const { actor, channel } = viewer;
  if (!isScheduleAdmin(admins, actor))
    throw refusal((t) => t('scheduleHistory:audit.adminsOnly'), 'forbidden');
  const scope = channel && scopeOf(channel.platform, workspaceOf(channel));
  const isAll = actor.isOperator === true || channel === undefined;
  const keys = isAll ? [ALL] : [DEPLOYMENT, ...(scope === undefined ? [] : [logOf(scope)])];
  const logs = await Promise.all(keys.map((key) => store.readLog(key, AUDIT_KEPT)));
  const wanted = id?.trim().toLowerCase();
  return logs
    .flat()
    .map((value) => JSON.parse(value) as AuditEntry)
    .filter((e) => wanted === undefined || e.scheduleId === wanted)
    .sort((a, b) => b.at - a.at)
    .slice(0, AUDIT_SHOWN);
}
