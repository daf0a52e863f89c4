// A Reply as Slack's Home tab (views.publish, a view of type home), pure: the reply's Home (its title
// as a header, what it is about, its buttons, each entry as a section with its own buttons, its
// notes), or, for a reply without one, its text. A notice (what the last click did) goes first.
// Within a view's limits: 100 blocks; an entry that would pass them is left out and counted.
// https://docs.slack.dev/reference/views/home-tab-views
// https://docs.slack.dev/reference/methods/views.publish
import { mapReplyText, type Action, type Reply } from '../core/reply.ts';
import { SLACK_LIMITS } from '../domain/slack.ts';
import { truncate } from '../domain/text.ts';
import { slackButton } from './slack-actions.ts';
import { escapeMrkdwn, escapePlainText, formatMrkdwn } from './slack-escape.ts';
import {
  MAX_ACTION_ELEMENTS,
  MAX_SECTION_TEXT,
  mrkdwn,
  type ActionsBlock,
  type KnownBlock,
} from './slack-payload.ts';
import { truncateMrkdwn } from './slack-text.ts';
import { mrkdwnTimes } from './slack.ts';
import { withoutControls } from './text-safety.ts';
import { writeTimes } from './time.ts';

/** A Home tab's buttons: this prefix and the button's place; its value carries what it runs. */
export const HOME_ACTION_PREFIX = 'herald:home:';

const MAX_HEADING = 200;

/** The view views.publish takes. */
interface SlackHomeView {
  type: 'home';
  blocks: KnownBlock[];
}

/** A section of escaped mrkdwn, its time values as Slack's date tokens, within a section's text. */
function section(escaped: string): KnownBlock {
  return {
    type: 'section',
    text: mrkdwn(mrkdwnTimes(truncateMrkdwn(escaped, MAX_SECTION_TEXT - 500), MAX_SECTION_TEXT)),
  };
}

/** Numbers each button of the view, so each action_id is unique in it. */
function buttonsOf(actions: readonly Action[], next: () => number): ActionsBlock | undefined {
  const elements = actions
    .slice(0, MAX_ACTION_ELEMENTS)
    .flatMap((action) => slackButton(action, `${HOME_ACTION_PREFIX}${next()}`) ?? []);
  return elements.length > 0 ? { type: 'actions', elements } : undefined;
}

/** The Home tab for `shown`, with `notice` (what the last click did) first. */
export function renderSlackHome(shown: Reply, notice?: Reply): SlackHomeView {
  const reply = mapReplyText(shown, withoutControls);
  let n = 0;
  const next = () => n++;
  const top: KnownBlock[] = [];
  const said = notice && withoutControls(notice.text).trim();
  if (said) top.push(section(formatMrkdwn(said)));
  const { home } = reply;
  if (!home) {
    const blocks = [...top, section(formatMrkdwn(reply.text.trim() || 'herald'))];
    const buttons = buttonsOf(reply.actions ?? [], next);
    return { type: 'home', blocks: buttons ? [...blocks, buttons] : blocks };
  }
  const title = truncate(
    escapePlainText(writeTimes(home.title, 'plain').replace(/\s+/g, ' ').trim()),
    SLACK_LIMITS.headerText,
    {
      entities: true,
    },
  );
  top.unshift({ type: 'header', text: { type: 'plain_text', text: title || 'herald', emoji: true } });
  if (home.intro.trim()) top.push(section(formatMrkdwn(home.intro.trim())));
  const buttons = buttonsOf(home.actions, next);
  if (buttons) top.push(buttons);
  const room = SLACK_LIMITS.viewBlocks - top.length - 1;
  const entries: KnownBlock[] = [];
  let left = 0;
  for (const item of home.items) {
    // A heading is cut short, so an entry's lines keep most of the section's room.
    const head = truncate(escapeMrkdwn(item.title.replace(/\s+/g, ' ').trim()), MAX_HEADING, {
      entities: true,
    });
    const blocks: KnownBlock[] = [
      { type: 'divider' },
      section(`*${head}*\n${formatMrkdwn(item.lines.join('\n'))}`),
    ];
    const own = buttonsOf(item.actions, next);
    if (own) blocks.push(own);
    if (left > 0 || entries.length + blocks.length > room) left += 1;
    else entries.push(...blocks);
  }
  const notes = [
    ...home.notes,
    ...(left > 0 ? [`${left} more not shown: a Home tab holds ${SLACK_LIMITS.viewBlocks} blocks.`] : []),
  ];
  const closing: KnownBlock[] =
    notes.length > 0
      ? [
          {
            type: 'context',
            elements: [
              mrkdwn(
                mrkdwnTimes(
                  truncate(formatMrkdwn(notes.join(' ')), SLACK_LIMITS.contextText - 500, { entities: true }),
                  SLACK_LIMITS.contextText,
                ),
              ),
            ],
          },
        ]
      : [];
  return { type: 'home', blocks: [...top, ...entries, ...closing] };
}
