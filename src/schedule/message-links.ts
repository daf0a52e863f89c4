// A run's message link for /schedule history, worked out when shown by the client that posted it,
// from the message id the run recorded; none where the platform gives none, never a made-up one.
import { parseChannelDestination } from '../core/channel.ts';
import { webhookClientFor } from './delivery.ts';
import type { DeliveryOptions } from './delivery-options.ts';
import type { ScheduleRecord, ScheduleRun } from './schedules.ts';

/** The clients that posted: the bot's own, and the destinations' webhooks as the deliverer finds them. */
type MessageLinkSources = Pick<DeliveryOptions, 'channels' | 'services' | 'destinations' | 'log'>;

/** The address of a run's posted message, or undefined where the platform gives none. */
export type MessageLinker = (
  record: ScheduleRecord,
  run: ScheduleRun,
  signal?: AbortSignal,
) => Promise<string | undefined>;

export function createMessageLinker(sources: MessageLinkSources): MessageLinker {
  return async (record, run, signal) => {
    if (run.outcome !== 'posted' || !run.messageId) return undefined;
    const channel = parseChannelDestination(record.destination);
    const channelId = run.channelId ?? channel?.id;
    const ref = {
      messageId: run.messageId,
      ...(channelId ? { channelId } : {}),
      ...(channel && record.guildId ? { guildId: record.guildId } : {}),
    };
    try {
      const client = channel
        ? sources.channels?.[channel.platform]
        : webhookClientFor(sources, record.destination);
      return await client?.messageLink?.(ref, signal ? { signal } : {});
    } catch (err) {
      sources.log.warn({ err, scheduleId: record.id, slotId: run.slotId }, 'schedule.message_link_failed');
      return undefined;
    }
  };
}
