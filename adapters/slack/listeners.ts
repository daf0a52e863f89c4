// What the Slack app listens to: each top-level slash command, herald's buttons and the message
// shortcuts (Read aloud). Each is acked at once (Slack allows 3 s), turned into an Invocation target
// and handed to the adapter's runner.
import type { App, BlockAction, ButtonAction, MessageShortcut, RespondFn, webApi } from '@slack/bolt';
import type { Actor } from '../../src/core/actor.ts';
import type { CommandRegistry, Invocation } from '../../src/core/adapter.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import type { CommandLog } from '../../src/core/command.ts';
import { describeSdkError } from './bolt-log.ts';
import type { ReplyTarget } from './deliver.ts';
import { decodeSlackText } from './escape.ts';
import { slackMentionIds, slackMessageWords } from './message-words.ts';
import { lookUpNames } from './names.ts';
import { ACTION_ID_PREFIX, decodeActionValue } from '../../src/render/slack.ts';
import { route } from './route.ts';
import { formValuesOf } from '../../src/core/form.ts';
import type { Translate } from '../../src/i18n/translate.ts';

const ACTION_ID_RE = new RegExp(`^${ACTION_ID_PREFIX.replaceAll(':', '\\:')}`);

export interface ListenerContext {
  log: CommandLog;
  secrets: readonly string[];
  now: () => number;
  /** Runs the invocation and answers `target` (or through its own `respond`, given one). */
  run(
    target: ReplyTarget,
    invocation: Omit<Invocation, 'respond' | 'signal'> & Partial<Pick<Invocation, 'respond'>>,
  ): Promise<void>;
  /** Answers the invoker alone without running anything (usage, an unreadable button). */
  answerPrivately(target: ReplyTarget, text: string): Promise<void>;
  /** The translator for a user's Slack locale, for what the adapter answers itself. */
  translatorOf(userId: string): Promise<Translate>;
}

export function newTarget(
  context: ListenerContext,
  where: {
    respond: RespondFn;
    client: webApi.WebClient;
    channelId: string;
    userId: string;
    isAction: boolean;
  },
): ReplyTarget {
  return { ...where, startedAtMs: context.now(), isCommandEphemeral: false, uses: 0 };
}

function listenToCommands(bolt: App, registry: CommandRegistry, context: ListenerContext): void {
  for (const entry of registry.entries) {
    bolt.command(`/${entry.name}`, async ({ command: payload, ack, respond, client }) => {
      await ack(); // first, always: Slack shows an error after 3 s without it
      const target = newTarget(context, {
        respond,
        client,
        channelId: payload.channel_id,
        userId: payload.user_id,
        isAction: false,
      });
      const routed = route(entry, decodeSlackText(payload.text ?? '').trim());
      if ('usage' in routed) return context.answerPrivately(target, routed.usage);
      target.isCommandEphemeral = routed.command.ephemeral;
      const channel = channelOf(payload.channel_id, payload.channel_name, payload.team_id);
      Object.assign(target, { triggerId: payload.trigger_id, channel });
      const actor: Actor = {
        platform: 'slack',
        id: payload.user_id,
        displayName: payload.user_name,
        roles: [],
      };
      await context.run(target, {
        command: routed.command.name,
        rawInput: routed.rest,
        actor,
        channelId: payload.channel_id,
        // The workspace: /schedule shows a workspace its own schedules only.
        channel,
        hasForms: true,
      });
    });
  }
}

/**
 * The channel a command was typed in, with its name where Slack gives a real one: a DM's and an old
 * private group's `channel_name` (`directmessage`, `privategroup`) name no channel.
 */
function channelOf(id: string, name: string | undefined, teamId: string): ChatChannel {
  const isNamed = name !== undefined && /^[a-z0-9][a-z0-9_-]{0,79}$/.test(name);
  return isNamed && name !== 'directmessage' && name !== 'privategroup'
    ? { platform: 'slack', id, name, teamId }
    : { platform: 'slack', id, teamId };
}

function listenToButtons(bolt: App, registry: CommandRegistry, context: ListenerContext): void {
  bolt.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: ACTION_ID_RE },
    async ({ ack, body, action, respond, client }) => {
      await ack();
      const channelId = body.channel?.id ?? (body.container.channel_id as string | undefined);
      const target = newTarget(context, {
        respond,
        client,
        channelId: channelId ?? body.user.id,
        userId: body.user.id,
        isAction: true,
      });
      const payload = decodeActionValue(action.value);
      if (!payload || channelId === undefined) {
        context.log.warn({ actionId: action.action_id }, 'slack.button_unreadable');
        return context.answerPrivately(
          target,
          (await context.translatorOf(body.user.id))('common:unreadableButton'),
        );
      }
      target.isCommandEphemeral = registry.get(payload.command)?.ephemeral ?? false;
      target.triggerId = body.trigger_id;
      const displayName = body.user.name ?? body.user.username;
      const actor: Actor = { platform: 'slack', id: body.user.id, displayName, roles: [] };
      const { command, input, opensForm } = payload;
      const openForm = opensForm === true ? { openForm: formValuesOf(input) } : {};
      // The workspace too: /schedule finds a workspace's own schedules only.
      const team = body.team?.id ?? body.user.team_id;
      const channel = team === undefined ? {} : { channel: channelOf(channelId, body.channel?.name, team) };
      target.channel = channel.channel;
      await context.run(target, {
        command,
        rawInput: input,
        actor,
        channelId,
        hasForms: true,
        ...openForm,
        ...channel,
        surface: 'button',
      });
    },
  );
}

/** A message shortcut (callback_id: the command's name) runs its command on the message as words. */
function listenToShortcuts(bolt: App, registry: CommandRegistry, context: ListenerContext): void {
  for (const command of registry.messageCommands) {
    bolt.shortcut<MessageShortcut>(
      { type: 'message_action', callback_id: command.name },
      async ({ ack, shortcut, respond, client }) => {
        await ack();
        const { channel, user } = shortcut;
        const target = newTarget(context, {
          respond,
          client,
          channelId: channel.id,
          userId: user.id,
          isAction: false,
        });
        target.isCommandEphemeral = command.ephemeral;
        const said = typeof shortcut.message.text === 'string' ? shortcut.message.text : '';
        const names = await lookUpNames(client, slackMentionIds(said), context);
        const actor: Actor = { platform: 'slack', id: user.id, displayName: user.name, roles: [] };
        await context.run(target, {
          command: command.name,
          rawInput: { text: slackMessageWords(said, names) },
          actor,
          channelId: channel.id,
          channel: channelOf(channel.id, channel.name, shortcut.team?.id ?? user.team_id ?? ''),
        });
      },
    );
  }
}

/** Registers every listener herald needs on `bolt`. */
export function listen(bolt: App, registry: CommandRegistry, context: ListenerContext): void {
  listenToCommands(bolt, registry, context);
  listenToButtons(bolt, registry, context);
  listenToShortcuts(bolt, registry, context);
  bolt.error((error) => {
    context.log.error({ err: describeSdkError(error, context.secrets) }, 'slack.event_failed');
    return Promise.resolve();
  });
}
