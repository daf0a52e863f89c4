// Scheduled reports as data: a record per schedule, kept in the store (src/store/store.ts) so that
// it survives restarts and every replica sees it.
import { randomInt } from 'node:crypto';
import type { Actor } from '../core/actor.ts';
import type { Mention } from '../domain/mentions.ts';

/**
 * `pending`: the run succeeded but its post waits in the outbox for a retry; `no-change`: a watch
 * found nothing new; `missed`: no replica ran the slot within the catch-up window; `skipped`: a
 * holiday or `/schedule skip` set the slot aside (src/schedule/skips.ts).
 */
type RunOutcome = 'posted' | 'pending' | 'failed' | 'no-change' | 'missed' | 'skipped';

export interface ScheduleRun {
  /** The slot id: the scheduled fire time in ISO 8601, or `manual:<time>`. */
  slotId: string;
  /** Epoch ms when the run finished. */
  at: number;
  outcome: RunOutcome;
  /** Why it failed, one sentence; or why it was skipped (`public holiday: Christmas Day`). */
  error?: string;
  /** The posted message's id, as the platform answered it: Discord's snowflake, Slack's `ts`. */
  messageId?: string;
  /** The channel the platform said the message is in (Discord's `channel_id`, Slack's `channel`). */
  channelId?: string;
  /** How long the run took, its delivery included. */
  durationMs?: number;
  /** Epoch ms: when a failed attempt of the slot is tried again (`pending`). */
  nextRetryAt?: number;
  /** The destination was gone (401/403/404), so this run paused the schedule. */
  paused?: boolean;
}

export interface ScheduleHome {
  /** The Discord server (guild) or Slack workspace (team) id; absent on the console and in a Discord DM. */
  workspaceId?: string;
  /** The channel it was added in and posts to, when that channel is private (or a DM). */
  privateChannelId?: string;
}

export interface ScheduleRecord {
  /** Short and typeable: `k7p2mx`. */
  id: string;
  /** `when` as written. */
  when: string;
  /** The five-field cron expression it means. */
  cron: string;
  /** `when` in words. */
  words: string;
  /** IANA zone the cron is read in. */
  timezone: string;
  /** `tz:` set the zone (else the creator's or channel's did): the zone of its posts' plain-text times too. */
  isZoneTyped?: boolean;
  /** A configured destination name, or `channel:<platform>:<id>` (src/core/channel.ts). */
  destination: string;
  /** `to:me`: its creator's direct messages, so the creator's settings come before the channel's. */
  isDirect?: boolean;
  /**
   * The Discord server (guild) a `channel:discord:<id>` destination is in, from the interaction that
   * added it: with it, a run's message has a link. Absent for a DM and for schedules added before.
   */
  guildId?: string;
  /**
   * Where it was added, which decides who sees it (src/schedule/visibility.ts): the Discord server
   * or Slack workspace, and the channel when that channel is private. Absent for a schedule added
   * before homes were kept: then only its creator, the admins and the operator see it.
   */
  home?: ScheduleHome;
  /** A channel destination's name when the platform said it at add time (Slack's `general`). */
  channelName?: string;
  /** The scheduled command line, as typed: `/weather Oslo units:imperial`. */
  command: string;
  /** Who added it: the slot runs with this identity, so their access rules apply. */
  creator: Actor;
  paused: boolean;
  /** A watch (`only:new`): posts only what is new since its last post. */
  onlyNew?: boolean;
  /** A /forecast watch's condition or threshold: `rain`, `snow`, `below 0`, `above 30`. */
  alert?: string;
  /** `mode:edit` or `thread:yes`: where each run lands (docs/SCHEDULING.md, "Where a report lands"). */
  lands?: 'edit' | 'thread';
  /** Who each post pings (`ping:`, set by a schedule admin); absent, the posts ping no one. */
  ping?: Mention[];
  /** `skip:holidays:de-by`'s country and region: no run on their public holidays. */
  holidays?: string;
  /** Epoch ms. */
  createdAt: number;
  lastRun?: ScheduleRun;
}

/** Runs kept per schedule, in every store. */
export const RUN_HISTORY = 20;

export type AddResult = 'added' | 'full' | 'exists';

/** No look-alikes (0/o, 1/l/i), so that an id read aloud or retyped is the same id. */
const ID_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const SCHEDULE_ID_LENGTH = 6;

export function newScheduleId(): string {
  let id = '';
  for (let i = 0; i < SCHEDULE_ID_LENGTH; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

/** The job name a schedule's slots are claimed under, in the same store as the jobs' slots. */
export function scheduleJobName(id: string): string {
  return `schedule-${id}`;
}

/** The store's key/value key of where a schedule's posts land (its board or thread), shared by replicas. */
export const landsKey = (id: string) => `lands:${id}`;

/** Whether a claimed job name is a chat schedule's (scheduleJobName), not a built-in job's. */
export function isScheduleJobName(name: string): boolean {
  return name.startsWith('schedule-');
}

/** The run `/schedule skip` set aside (kept under skipKey): its slot id and who asked. */
export interface ScheduleSkip {
  slotId: string;
  by: string;
}

export const skipKey = (id: string) => `schedule-skip:${id}`;
