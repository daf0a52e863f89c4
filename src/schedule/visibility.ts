// Who sees a schedule from chat: a viewer sees the schedules of the server or workspace they type
// in; one that posts into a private channel only in that channel, by its creator and the admins;
// one that posts to a destination set by environment (or added before homes were kept) is seen by
// its creator, the admins and the operator wherever they are. The console operator sees all.
import type { Actor } from '../core/actor.ts';
import { parseChannelDestination, workspaceOf, type ChatChannel } from '../core/channel.ts';
import type { ScheduleRecord } from './schedules.ts';

/** Who asks, and the channel they type in (absent on the console). */
export interface Viewer {
  actor: Actor;
  channel?: ChatChannel | undefined;
}

/**
 * SCHEDULE_ADMIN_USERS / _ROLES: who may remove, pause, resume and run schedules that others added
 * (the operator always may); everyone else manages their own only.
 */
export interface ScheduleAdmins {
  adminUsers?: readonly string[];
  adminRoles?: readonly string[];
}

/** The operator always is a schedule admin. */
export function isScheduleAdmin(admins: ScheduleAdmins, actor: Actor): boolean {
  if (actor.isOperator === true || (admins.adminUsers ?? []).includes(actor.id)) return true;
  const roles = new Set(admins.adminRoles ?? []);
  return actor.roles.some((r) => roles.has(r));
}

/** Its creator and the schedule admins may manage a schedule. */
export const mayManage = (admins: ScheduleAdmins, record: ScheduleRecord, actor: Actor): boolean =>
  (record.creator.platform === actor.platform && record.creator.id === actor.id) ||
  isScheduleAdmin(admins, actor);

export function canSee(admins: ScheduleAdmins, record: ScheduleRecord, viewer: Viewer): boolean {
  const { actor, channel } = viewer;
  if (actor.isOperator === true) return true;
  const isOwnOrAdmin = mayManage(admins, record, actor);
  const home = record.home;
  if (home?.privateChannelId !== undefined) {
    const isThatChannel =
      channel?.platform === record.creator.platform && channel.id === home.privateChannelId;
    return isThatChannel && isOwnOrAdmin;
  }
  if (home?.workspaceId === undefined || parseChannelDestination(record.destination) === undefined)
    return isOwnOrAdmin;
  return channel?.platform === record.creator.platform && workspaceOf(channel) === home.workspaceId;
}
