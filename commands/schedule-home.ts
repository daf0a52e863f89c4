// The Slack Home tab's list of schedules (the Home a `schedule list` asked from there answers): the
// reader's own schedules, or a schedule admin's workspace, each with its state, next and last runs
// (time values, in the reader's time) and its buttons, the same commands the list's buttons run.
import type { Actor } from '../src/core/actor.ts';
import type { HomeItem, Reply } from '../src/core/reply.ts';
import type { Listing } from '../src/schedule/service.ts';
import type { ScheduleRecord } from '../src/schedule/schedules.ts';
import { truncate } from './format.ts';
import { scheduleField } from './schedule-list-format.ts';

/** The most schedules a Home tab lists: three blocks each, within its 100 blocks. */
const HOME_SCHEDULES = 30;

function homeItem(s: Listing['schedules'][number], zone: string): HomeItem {
  const { id, paused, words, command } = s.record;
  const field = scheduleField(s, zone);
  return {
    title: field.name,
    lines: [`State: ${paused ? 'paused' : 'active'}`, ...field.value.split('\n')],
    actions: [
      { label: 'Run now', command: 'schedule run', input: { id } },
      paused
        ? { label: 'Resume', command: 'schedule resume', input: { id } }
        : { label: 'Pause', command: 'schedule pause', input: { id } },
      {
        label: 'Remove',
        command: 'schedule remove',
        input: { id },
        confirm: {
          question: truncate(`Remove schedule ${id} (${words}, ${command})? It will not post again.`, 300),
          yes: 'Remove',
        },
      },
    ],
  };
}

/**
 * The Home tab's list: the reader's own schedules, or, for a schedule admin, every one the list
 * shows them where they are (their workspace), each with Run now, Pause or Resume and Remove.
 */
export function homeReply(listing: Listing, viewer: { actor: Actor; isAdmin: boolean }, zone: string): Reply {
  const { actor, isAdmin } = viewer;
  const isOwn = (r: ScheduleRecord) => r.creator.platform === actor.platform && r.creator.id === actor.id;
  const all = listing.schedules.filter((s) => isAdmin || isOwn(s.record));
  const count = all.length;
  const some = `${count} schedule${count === 1 ? '' : 's'}`;
  const intro =
    count === 0
      ? 'No schedules yet: New schedule opens the form, or type /schedule add "every weekday at 07:30" /weather Oslo.'
      : isAdmin
        ? `${some} in this workspace; as a schedule admin you see everyone’s.`
        : `${some} you added.`;
  const more = count - HOME_SCHEDULES;
  return {
    text: intro,
    home: {
      title: isAdmin ? 'Schedules in this workspace' : 'My schedules',
      intro,
      items: all.slice(0, HOME_SCHEDULES).map((s) => homeItem(s, zone)),
      // The form from here adds a direct message from herald (to:me): a channel's own is added there.
      actions: [{ label: 'New schedule', command: 'schedule add', input: { to: 'me' }, opensForm: true }],
      notes: [
        ...(more > 0 ? [`${more} more not shown here; /schedule list shows them all.`] : []),
        'A schedule that posts into a private channel is listed in that channel (/schedule list).',
      ],
    },
  };
}
