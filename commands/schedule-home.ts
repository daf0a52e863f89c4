// The Slack Home tab's list of schedules (the Home a `schedule list` asked from there answers): the
// reader's own schedules, or a schedule admin's workspace, each with its state, next and last runs
// (time values, in the reader's time) and its buttons, the same commands the list's buttons run.
import type { Actor } from '../src/core/actor.ts';
import type { CommandContext } from '../src/core/command.ts';
import type { HomeItem, Reply } from '../src/core/reply.ts';
import type { Listing } from '../src/schedule/service.ts';
import type { ScheduleRecord } from '../src/schedule/schedules.ts';
import { truncate } from './format.ts';
import { scheduleField } from './schedule-list-format.ts';

/** The reader's language (ctx.t, ctx.locale) and the language it is (ctx.preferences.language). */
type Reader = Pick<CommandContext, 't' | 'locale' | 'preferences'>;

/** The most schedules a Home tab lists: three blocks each, within its 100 blocks. */
const HOME_SCHEDULES = 30;

function homeItem(s: Listing['schedules'][number], zone: string, reader: Reader): HomeItem {
  const { id, paused, words, command } = s.record;
  const { t } = reader;
  const field = scheduleField(s, zone, reader);
  return {
    title: field.name,
    lines: [t(paused ? 'home:state.paused' : 'home:state.active'), ...field.value.split('\n')],
    actions: [
      { label: t('schedule:actions.runNow'), command: 'schedule run', input: { id } },
      paused
        ? { label: t('home:resume'), command: 'schedule resume', input: { id } }
        : { label: t('home:pause'), command: 'schedule pause', input: { id } },
      {
        label: t('schedule:actions.remove'),
        command: 'schedule remove',
        input: { id },
        confirm: {
          question: truncate(t('home:confirmRemove', { id, words, command }), 300),
          yes: t('schedule:actions.remove'),
          no: t('home:cancel'),
        },
      },
    ],
  };
}

/**
 * The Home tab's list: the reader's own schedules, or, for a schedule admin, every one the list
 * shows them where they are (their workspace), each with Run now, Pause or Resume and Remove, all
 * in the reader's language.
 */
export function homeReply(
  listing: Listing,
  viewer: { actor: Actor; isAdmin: boolean },
  zone: string,
  reader: Reader,
): Reply {
  const { actor, isAdmin } = viewer;
  const { t } = reader;
  const isOwn = (r: ScheduleRecord) => r.creator.platform === actor.platform && r.creator.id === actor.id;
  const all = listing.schedules.filter((s) => isAdmin || isOwn(s.record));
  const count = all.length;
  const newSchedule = t('schedule:form.title');
  const intro =
    count === 0
      ? t('home:empty', { button: newSchedule })
      : t(isAdmin ? 'home:workspace' : 'home:mine', { count });
  const more = count - HOME_SCHEDULES;
  return {
    text: intro,
    home: {
      title: t(isAdmin ? 'home:title.workspace' : 'home:title.mine'),
      intro,
      language: reader.preferences.language,
      items: all.slice(0, HOME_SCHEDULES).map((s) => homeItem(s, zone, reader)),
      // The form from here adds a direct message from herald (to:me): a channel's own is added there.
      actions: [{ label: newSchedule, command: 'schedule add', input: { to: 'me' }, opensForm: true }],
      notes: [...(more > 0 ? [t('home:more', { n: more })] : []), t('home:privateChannels')],
    },
  };
}
