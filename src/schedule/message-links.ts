// Where a schedule's posted messages are, for /schedule history: each run's link is worked out when
// the history is shown, from what the run recorded (the message id and the channel the platform
// answered with) and where the schedule posts, by the client that posted it: a Discord channel from
// the guild kept at add time, a Discord webhook from its webhook object, a Slack channel from
// chat.getPermalink. A Slack incoming webhook names no message, and a run without a message id has
// nothing to link: no link then, never a made-up one.
import { parseChannelDestination } from '../core/channel.ts';
import type { ChannelClient, WebhookClient } from '../services/webhook/client.ts';
import type { JobLog } from './job.ts';
import type { ScheduleRecord, ScheduleRun } from './schedules.ts';

interface MessageLinkSources {
  /** The bot's own clients, for `channel:<platform>:<id>` destinations. */
  channels?: Readonly<Partial<Record<'discord' | 'slack', ChannelClient>>>;
  /** The webhook client of a named destination, `default` included; undefined when not configured. */
  webhook(name: string): WebhookClient | undefined;
  log: JobLog;
}

/** The address of a run's posted message, or undefined where the platform gives none. */
export type MessageLinker = (
  record: ScheduleRecord,
  run: ScheduleRun,
  signal?: AbortSignal,
) => Promise<string | undefined>;

export function createMessageLinker(sources: MessageLinkSources): MessageLinker {
  return async (record, run, signal) => {
    if (run.outcome !== 'posted' || !run.messageId) return undefined;
    const opts = signal ? { signal } : {};
    const channel = parseChannelDestination(record.destination);
    try {
      if (channel) {
        const ref = {
          messageId: run.messageId,
          channelId: run.channelId ?? channel.id,
          ...(record.guildId ? { guildId: record.guildId } : {}),
        };
        return await sources.channels?.[channel.platform]?.messageLink(ref, opts);
      }
      const ref = { messageId: run.messageId, ...(run.channelId ? { channelId: run.channelId } : {}) };
      return await sources.webhook(record.destination)?.messageLink?.(ref, opts);
    } catch (err) {
      // The history is shown all the same, with the message's ids in place of its link.
      sources.log.warn({ err, scheduleId: record.id, slotId: run.slotId }, 'schedule.message_link_failed');
      return undefined;
    }
  };
}
