// A schedule from chat as data, kept in the store so that it survives restarts and every replica sees it.
import { randomInt } from 'node:crypto';
import type { Actor } from '../core/actor.ts';
import type { Mention } from '../domain/mentions.ts';

/** `pending`: its post waits in the outbox; `missed`: no replica ran it within the catch-up window. */
type RunOutcome = 'posted' | 'pending' | 'failed' | 'no-change' | 'missed' | 'skipped';

export interface ScheduleRun {
  /** The scheduled fire time in ISO 8601, or `manual:<time>`. */
  slotId: string;
  /** When the run finished. */
  at: number;
  outcome: RunOutcome;
  /** Why it failed, one sentence; or why it was skipped (`public holiday: Christmas Day`). */
  error?: string;
  /** As the platform answered them: Discord's snowflake and `channel_id`, Slack's `ts` and `channel`. */
  messageId?: string;
  channelId?: string;
  /** Delivery included. */
  durationMs?: number;
  /** When a failed attempt is tried again (`pending`). */
  nextRetryAt?: number;
  /** The destination was gone, so this run paused the schedule. */
  paused?: boolean;
}

export interface ScheduleHome {
  /** The Discord server or Slack workspace; absent on the console and in a Discord DM. */
  workspaceId?: string;
  /** The channel it posts to, when that channel is private (or a DM). */
  privateChannelId?: string;
}

export interface ScheduleRecord {
  /** Short and typeable: `k7p2mx`. */
  id: string;
  /** As written, as cron, in words. */
  when: string;
  cron: string;
  words: string;
  timezone: string;
  /** `tz:` set the zone (else the creator's or channel's did): the zone of its posts' plain-text times too. */
  isZoneTyped?: boolean;
  /** A configured destination name, or `channel:<platform>:<id>` (src/core/channel.ts). */
  destination: string;
  /** `to:me`: its creator's direct messages, so the creator's settings come before the channel's. */
  isDirect?: boolean;
  /** The Discord server a `channel:discord:<id>` destination is in: a run's message link needs it. */
  guildId?: string;
  /** Where it was added, which decides who sees it (visibility.ts). */
  home?: ScheduleHome;
  /** A channel destination's name when the platform said it at add time (Slack's `general`). */
  channelName?: string;
  /** The scheduled command line, as typed: `/weather Oslo units:imperial`. */
  command: string;
  /** The slot runs with this identity, so their access rules apply. */
  creator: Actor;
  paused: boolean;
  /** A watch (`only:new`). */
  onlyNew?: boolean;
  /** A /forecast watch's condition or threshold: `rain`, `snow`, `below 0`, `above 30`. */
  alert?: string;
  /** `mode:edit` or `thread:yes`: where each run lands (docs/SCHEDULING.md, "Where a report lands"). */
  lands?: 'edit' | 'thread';
  /** Who each post pings (`ping:`, set by a schedule admin); absent, the posts ping no one. */
  ping?: Mention[];
  /** `skip:holidays:de-by`'s country and region: no run on their public holidays. */
  holidays?: string;
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

/** The job name a schedule's slots are claimed under. */
export const scheduleJobName = (id: string): string => `schedule-${id}`;

/** The key/value key of where a schedule's posts land (its board or thread). */
export const landsKey = (id: string) => `lands:${id}`;

/** Whether a claimed job name is a chat schedule's (scheduleJobName), not a built-in job's. */
export const isScheduleJobName = (name: string): boolean => name.startsWith('schedule-');

/** The run `/schedule skip` set aside (kept under skipKey): its slot id and who asked. */
export interface ScheduleSkip {
  slotId: string;
  by: string;
}

export const skipKey = (id: string) => `schedule-skip:${id}`;
