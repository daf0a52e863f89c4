// Slack's side of herald's forms: a modal view's submit (view_submission) read back as the typed line
// its fields spell, and run through the dispatcher as that line would be. Slack wants the submit
// acknowledged within 3 s, and the acknowledgement is where a refusal shows: in the form, beside its
// field (`response_action: errors`, keyed by block_id). An answer that takes longer closes the form
// and follows as a message in the channel, a refusal with a button that opens the form again.
// https://docs.slack.dev/reference/interaction-payloads/view-interactions-payload#view_submission
// https://docs.slack.dev/surfaces/modals#displaying_errors
import type { App, RespondFn, ViewSubmitAction } from '@slack/bolt';
import type { Actor } from '../../src/core/actor.ts';
import type { CommandRegistry } from '../../src/core/adapter.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import { buildForm, fieldOfError, formLine, withReopen, type FormValues } from '../../src/core/form.ts';
import type { Reply } from '../../src/core/reply.ts';
import { FORM_CALLBACK_PREFIX } from '../../src/render/slack-form.ts';
import type { Deliver } from './deliver.ts';
import { publishHome } from './home.ts';
import { newTarget, type ListenerContext } from './listeners.ts';

/** How long a submit waits for its answer before the form closes and the answer follows as a message. */
const SUBMIT_ANSWER_MS = 2_500;
const CALLBACK_RE = new RegExp(`^${FORM_CALLBACK_PREFIX}`);
const LOST_CHANNEL = 'This form no longer knows where it was opened; run the command again.';

/** A submit has no response_url: its answers go through the Web API. */
const noResponseUrl: RespondFn = () => Promise.reject(new Error('a form submit has no response_url'));

type StateValues = ViewSubmitAction['view']['state']['values'];

/** Each input's text, by block_id (the field's name). */
function submittedValues(values: StateValues): FormValues {
  const out: FormValues = {};
  for (const [block, actions] of Object.entries(values)) {
    const value = actions[block]?.value;
    if (typeof value === 'string') out[block] = value;
  }
  return out;
}

/**
 * The channel the form was opened in, from the private_metadata herald set, and whether it was
 * opened from the Home tab; undefined when unreadable.
 */
function channelOf(
  metadata: string,
  teamId: string | undefined,
): { channel: ChatChannel; isFromHome: boolean } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return undefined;
  }
  const { id, name, teamId: team, home } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof id !== 'string' || !/^[CDG][A-Z0-9]{2,}$/.test(id)) return undefined;
  const workspace = typeof team === 'string' ? team : teamId;
  const channel: ChatChannel = {
    platform: 'slack',
    id,
    ...(typeof name === 'string' ? { name } : {}),
    ...(workspace === undefined ? {} : { teamId: workspace }),
  };
  return { channel, isFromHome: home === true };
}

export function listenToForms(
  bolt: App,
  registry: CommandRegistry,
  context: ListenerContext & { deliver: Deliver },
): void {
  bolt.view<ViewSubmitAction>(
    { type: 'view_submission', callback_id: CALLBACK_RE },
    async ({ ack, body, view, client }) => {
      const command = registry.get(view.callback_id.slice(FORM_CALLBACK_PREFIX.length));
      const form = command === undefined ? undefined : buildForm(command);
      const opened = channelOf(view.private_metadata, body.team?.id ?? body.user.team_id);
      const channel = opened?.channel;
      if (!command || !form || !channel) {
        const field = form?.fields[0]?.name ?? 'when';
        return ack({ response_action: 'errors', errors: { [field]: LOST_CHANNEL } });
      }
      const values = submittedValues(view.state.values);
      const target = newTarget(context, {
        respond: noResponseUrl,
        client,
        channelId: channel.id,
        userId: body.user.id,
        isAction: false,
      });
      Object.assign(target, { uses: Number.POSITIVE_INFINITY, isCommandEphemeral: command.ephemeral });
      // Whichever comes first decides the acknowledgement: the answer, or SUBMIT_ANSWER_MS.
      let isDecided = false;
      let decide: (reply: Reply | undefined) => void = () => {};
      const decided = new Promise<Reply | undefined>((resolve) => (decide = resolve));
      const timer = setTimeout(() => {
        isDecided = true;
        decide(undefined);
      }, SUBMIT_ANSWER_MS);
      const actor: Actor = { platform: 'slack', id: body.user.id, displayName: body.user.name, roles: [] };
      const running = context.run(target, {
        command: command.name,
        rawInput: formLine(form, values),
        actor,
        channelId: channel.id,
        channel,
        respond: (reply) => {
          if (isDecided) return context.deliver(target, withReopen(reply, command.name, values));
          isDecided = true;
          decide(reply);
          return Promise.resolve();
        },
      });
      const reply = await decided;
      clearTimeout(timer);
      if (reply?.failureRef !== undefined) {
        await ack({ response_action: 'errors', errors: { [fieldOfError(form, reply.text)]: reply.text } });
      } else {
        await ack();
        if (reply) await context.deliver(target, reply);
      }
      await running;
      // Opened from the Home tab: the Home shows what the submit added.
      if (opened?.isFromHome === true && reply?.failureRef === undefined)
        await publishHome({ ...context, registry }, client, {
          userId: actor.id,
          displayName: actor.displayName,
          channel,
        });
    },
  );
}
