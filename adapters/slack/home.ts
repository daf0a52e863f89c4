// Slack's App Home tab: when a user opens it (app_home_opened, tab home), herald runs the command
// that draws it (`drawsHome`: /schedule list) as them from there (`surface: 'home'`: their schedules, or a schedule admin's workspace) and
// publishes its Home (views.publish). A button on it runs its command through the dispatcher as a
// click anywhere does (same checks, same sentences, the audit saying `home`), then publishes the
// Home again, its new state under the command's answer. The button's value carries what it runs, so
// any replica answers it. "New schedule" opens the form with the click's trigger_id.
// https://docs.slack.dev/reference/events/app_home_opened
// https://docs.slack.dev/reference/methods/views.publish
import type { App, BlockAction, ButtonAction, RespondFn, webApi } from '@slack/bolt';
import type { Actor } from '../../src/core/actor.ts';
import type { CommandRegistry } from '../../src/core/adapter.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import { formValuesOf } from '../../src/core/form.ts';
import type { Reply } from '../../src/core/reply.ts';
import { SLACK_LIMITS } from '../../src/domain/slack.ts';
import { HOME_ACTION_PREFIX, renderSlackHome } from '../../src/render/slack-home.ts';
import { decodeActionValue } from '../../src/render/slack.ts';
import { translatorFor, type Translate } from '../../src/i18n/translate.ts';
import { describeSdkError } from './bolt-log.ts';
import type { Deliver } from './deliver.ts';
import { newTarget, type ListenerContext } from './listeners.ts';

const ACTION_RE = new RegExp(`^${HOME_ACTION_PREFIX}`);

/** A Home's clicks have no response_url: their answers are the Home published again. */
const noResponseUrl: RespondFn = () => Promise.reject(new Error('a Home tab has no response_url'));

/** Who is looking, and where: the app's DM with them (`channel`), in their workspace. */
interface Where {
  userId: string;
  displayName: string;
  channel: ChatChannel;
}

/** Where a Home's command answers: the Home itself, published again (no response_url). */
function homeTarget(context: HomeContext, client: webApi.WebClient, { userId, channel }: Where) {
  return newTarget(context, {
    respond: noResponseUrl,
    client,
    channelId: channel.id,
    userId,
    isAction: true,
  });
}

/** The channel a Home was published for, from its private_metadata; else the user's workspace alone. */
function channelOf(metadata: string | undefined, userId: string, teamId: string | undefined): ChatChannel {
  let id: unknown;
  try {
    ({ id } = JSON.parse(metadata ?? '{}') as { id?: unknown });
  } catch {
    id = undefined;
  }
  const known = typeof id === 'string' && /^D[A-Z0-9]{2,}$/.test(id) ? id : userId;
  return { platform: 'slack', id: known, ...(teamId === undefined ? {} : { teamId }) };
}

type HomeContext = ListenerContext & { deliver: Deliver; registry: CommandRegistry };

/**
 * What the last click did, above the Home: the command's answer, or the adapter's own sentence,
 * written in the Home's language (the reader's, as the dispatcher resolved it), else in the
 * language of the user's Slack locale (a Home that failed to draw says no language).
 */
type Notice = Reply | ((t: Translate) => string);

async function noticeFor(context: HomeContext, notice: Notice | undefined, shown: Reply, userId: string) {
  if (typeof notice !== 'function') return notice;
  const language = shown.home?.language;
  const t = language === undefined ? await context.translatorOf(userId) : translatorFor(language);
  return { text: notice(t) };
}

/** Runs the command that draws the Home as the user, from there, and publishes its answer, `notice` first. */
export async function publishHome(
  context: HomeContext,
  client: webApi.WebClient,
  where: Where,
  notice?: Notice,
) {
  const command = context.registry.commands.find((c) => c.drawsHome === true);
  if (!command) return;
  const { userId, channel } = where;
  const actor: Actor = { platform: 'slack', id: userId, displayName: where.displayName, roles: [] };
  const target = homeTarget(context, client, where);
  const metadata = JSON.stringify({ id: channel.id });
  await context.run(target, {
    command: command.name,
    rawInput: {},
    actor,
    channelId: channel.id,
    channel,
    surface: 'home',
    respond: async (reply) => {
      const view = {
        ...renderSlackHome(reply, await noticeFor(context, notice, reply, userId)),
        private_metadata: metadata.slice(0, SLACK_LIMITS.viewMetadata),
      };
      try {
        await client.views.publish({ user_id: userId, view });
      } catch (err) {
        context.log.warn({ err: describeSdkError(err, context.secrets) }, 'slack.home_publish_failed');
      }
    },
  });
}

/** A click on a Home's button: its command run from the Home, then the Home published again. */
async function onClick(
  context: HomeContext,
  args: { body: BlockAction<ButtonAction>; action: ButtonAction; client: webApi.WebClient },
) {
  const { body, action, client } = args;
  const userId = body.user.id;
  const displayName = body.user.name ?? body.user.username ?? userId;
  const channel = channelOf(body.view?.private_metadata, userId, body.team?.id ?? body.user.team_id);
  const where: Where = { userId, displayName, channel };
  const payload = decodeActionValue(action.value);
  if (!payload) {
    context.log.warn({ actionId: action.action_id }, 'slack.button_unreadable');
    return publishHome(context, client, where, (t) => t('home:unreadable'));
  }
  const { command, input, opensForm } = payload;
  const target = homeTarget(context, client, where);
  Object.assign(target, { triggerId: body.trigger_id, channel, isFromHome: true });
  target.isCommandEphemeral = context.registry.get(command)?.ephemeral ?? false;
  let answer: Reply | undefined;
  const actor: Actor = { platform: 'slack', id: userId, displayName, roles: [] };
  await context.run(target, {
    command,
    rawInput: input,
    actor,
    channelId: channel.id,
    channel,
    surface: 'home',
    ...(opensForm === true ? { hasForms: true, openForm: formValuesOf(input) } : {}),
    // A form opens with the click's trigger_id; any other answer shows on the Home.
    respond: (reply) => {
      if (reply.form) return context.deliver(target, reply);
      answer = reply;
      return Promise.resolve();
    },
  });
  if (answer !== undefined || opensForm !== true) await publishHome(context, client, where, answer);
}

export function listenToHome(
  bolt: App,
  registry: CommandRegistry,
  listeners: ListenerContext & { deliver: Deliver },
): void {
  const context: HomeContext = { ...listeners, registry };
  bolt.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    const channel: ChatChannel = { platform: 'slack', id: event.channel, teamId: body.team_id };
    await publishHome(context, client, { userId: event.user, displayName: event.user, channel });
  });
  bolt.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: ACTION_RE },
    async ({ ack, body, action, client }) => {
      await ack();
      await onClick(context, { body, action, client });
    },
  );
}
