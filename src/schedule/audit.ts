// Who changed which schedule, from where and when: each add, pause, resume, skip, unskip, remove
// and import is one entry in the store's logs, on every backend. Schedule admins read the entries
// of the Discord server or Slack workspace they type in, with those of the schedules that belong to
// the deployment (no workspace), as /schedule list scopes them; the console operator reads all.
import type { Actor } from '../core/actor.ts';
import type { Surface } from '../core/command.ts';
import { workspaceOf } from '../core/channel.ts';
import type { Store } from '../store/store.ts';
import { fail } from './add-destination.ts';
import type { ScheduleRecord } from './schedules.ts';
import { isScheduleAdmin, type Viewer } from './visibility.ts';

export type AuditAction = 'add' | 'pause' | 'resume' | 'skip' | 'unskip' | 'remove' | 'import';

/** Where a change came from: a chat surface, the console, or `npm run store`. */
type ChangeSource = Surface | 'console' | 'store';

export interface AuditEntry {
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
const workspaceLog = (platform: string, workspace: string) => `audit:${platform}:${workspace}`;

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
  const entry: AuditEntry = {
    at: change.at,
    action: change.action,
    scheduleId: record.id,
    by: { platform: actor.platform, id: actor.id, displayName: actor.displayName },
    via: change.via,
  };
  const workspace = record.home?.workspaceId;
  const scoped = workspace === undefined ? DEPLOYMENT : workspaceLog(record.creator.platform, workspace);
  const value = JSON.stringify(entry);
  await Promise.all([store.appendLog(scoped, value, AUDIT_KEPT), store.appendLog(ALL, value, AUDIT_KEPT)]);
}

/** The latest entries `viewer` may read, newest first, of schedule `id` when given. */
export async function readAudit(
  store: Store,
  admins: Parameters<typeof isScheduleAdmin>[0],
  viewer: Viewer,
  id?: string,
): Promise<AuditEntry[]> {
  const { actor, channel } = viewer;
  if (actor.isOperator !== true && !isScheduleAdmin(admins, actor))
    throw fail(
      'forbidden',
      'Only a schedule admin (SCHEDULE_ADMIN_USERS or SCHEDULE_ADMIN_ROLES) or the operator may read the audit.',
    );
  const workspace = workspaceOf(channel);
  const keys =
    actor.isOperator === true || channel === undefined
      ? [ALL]
      : [DEPLOYMENT, ...(workspace === undefined ? [] : [workspaceLog(channel.platform, workspace)])];
  const logs = await Promise.all(keys.map((key) => store.readLog(key, AUDIT_KEPT)));
  const wanted = id?.trim().toLowerCase();
  return logs
    .flat()
    .map((value) => JSON.parse(value) as AuditEntry)
    .filter((e) => wanted === undefined || e.scheduleId === wanted)
    .sort((a, b) => b.at - a.at)
    .slice(0, AUDIT_SHOWN);
}
