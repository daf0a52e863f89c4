// Who sees a schedule from chat: /schedule list, history and every lookup by id (run, pause,
// resume, remove) show a viewer only the schedules of the Discord server or Slack workspace they
// type in. A schedule that posts into a private channel (Discord: @everyone may not view it;
// Slack: a private conversation; a DM) is seen only in that channel, by its creator and the
// admins. One that posts to a destination set by environment (WEBHOOK_URL, WEBHOOK_URL_<NAME>)
// belongs to the deployment: its creator, the admins (SCHEDULE_ADMIN_USERS / _ROLES) and the
// operator see it wherever they are. So does one added before homes were kept. The console
// operator sees all.
import type { Actor } from '../core/actor.ts';
import { parseChannelDestination, workspaceOf, type ChatChannel } from '../core/channel.ts';
import type { ScheduleRecord } from './schedules.ts';

/** Who asks, and the channel they type in (absent on the console). */
export interface Viewer {
  actor: Actor;
  channel?: ChatChannel | undefined;
}

/** The schedule admins: SCHEDULE_ADMIN_USERS by user id, SCHEDULE_ADMIN_ROLES by Discord role. */
interface ScheduleAdmins {
  adminUsers?: readonly string[];
  adminRoles?: readonly string[];
}

export function isScheduleAdmin(admins: ScheduleAdmins, actor: Actor): boolean {
  if ((admins.adminUsers ?? []).includes(actor.id)) return true;
  const roles = new Set(admins.adminRoles ?? []);
  return actor.roles.some((r) => roles.has(r));
}

const isCreator = (record: ScheduleRecord, actor: Actor): boolean =>
  record.creator.platform === actor.platform && record.creator.id === actor.id;

export function canSee(admins: ScheduleAdmins, record: ScheduleRecord, viewer: Viewer): boolean {
  const { actor, channel } = viewer;
  if (actor.isOperator === true) return true;
  const isOwnOrAdmin = isCreator(record, actor) || isScheduleAdmin(admins, actor);
  const home = record.home;
  if (home?.privateChannelId !== undefined) {
    const isThatChannel =
      channel?.platform === record.creator.platform && channel.id === home.privateChannelId;
    return isThatChannel && isOwnOrAdmin;
  }
  // Not kept (added before homes were, or its workspace unknown), or an environment destination.
  if (home?.workspaceId === undefined || parseChannelDestination(record.destination) === undefined)
    return isOwnOrAdmin;
  return channel?.platform === record.creator.platform && workspaceOf(channel) === home.workspaceId;
}
