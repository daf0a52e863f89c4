// How a schedule's creator is told what happened to it, never through the destination that
// refuses: a direct message where herald can send one; else the notice waits in the store for the
// reply to their next command, on whichever replica answers it. Every notice is also logged.
import type { Actor } from '../core/actor.ts';
import type { Store } from '../store/store.ts';
import type { JobLog } from './job.ts';
import type { ScheduleRecord } from './schedules.ts';

/** Sends `text` to `user` as a direct message; false when the platform or the bot cannot. */
export type DirectMessage = (user: Actor, text: string) => Promise<boolean>;

type NoticeRoute = 'dm' | 'next-command';

export interface CreatorNotices {
  tell(record: ScheduleRecord, text: string): Promise<NoticeRoute>;
  /** The notices waiting for `actor`, taken. */
  take(actor: Actor): Promise<string | undefined>;
}

/** Notices kept per user: a schedule refused daily must not grow the store without bound. */
const NOTICES_KEPT = 5;

const keyOf = (actor: Pick<Actor, 'platform' | 'id'>): string =>
  `creator-notice:${actor.platform}:${actor.id}`;

function parse(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const list: unknown = JSON.parse(value);
    return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

export function createCreatorNotices(deps: {
  store: Store;
  log: JobLog;
  directMessage?: DirectMessage | undefined;
}): CreatorNotices {
  const { store, log } = deps;
  return {
    async tell(record, text) {
      const creator = record.creator;
      log.warn({ scheduleId: record.id, creator: `${creator.platform}:${creator.id}` }, text);
      if (creator.platform !== 'console' && deps.directMessage) {
        try {
          if (await deps.directMessage(creator, text)) return 'dm';
        } catch (err) {
          log.warn({ err, scheduleId: record.id }, 'schedule.notice_dm_failed');
        }
      }
      const key = keyOf(creator);
      const waiting = parse(await store.getValue(key)).filter((n) => n !== text);
      await store.setValue(key, JSON.stringify([...waiting, text].slice(-NOTICES_KEPT)));
      return 'next-command';
    },
    async take(actor) {
      const key = keyOf(actor);
      const waiting = parse(await store.getValue(key));
      if (waiting.length === 0) return undefined;
      await store.setValue(key, '');
      return waiting.join('\n');
    },
  };
}
