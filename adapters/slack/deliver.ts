// Reply delivery for one invocation: the rendered reply through response_url (5 uses within 30
// minutes), the Web API once that is spent or expired, then files into the channel with filesUploadV2.
import type { RespondFn, webApi } from '@slack/bolt';
import type { CommandLog } from '../../src/core/command.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import type { Form, Reply } from '../../src/core/reply.ts';
import { renderSlackModal } from '../../src/render/slack-form.ts';
import { AdapterError, type AdapterErrorCode } from '../../src/errors.ts';
import { describeSdkError } from './bolt-log.ts';
import { renderSlack, type SlackFile, type SlackMessage } from '../../src/render/slack.ts';

/** A response_url takes up to 5 messages within 30 minutes of the invocation. */
export const RESPONSE_URL_WINDOW_MS = 30 * 60_000;
const RESPONSE_URL_MAX_USES = 5;

/** Where and how one invocation's replies go; `uses` counts response_url posts. */
export interface ReplyTarget {
  respond: RespondFn;
  client: webApi.WebClient;
  channelId: string;
  userId: string;
  isAction: boolean;
  startedAtMs: number;
  isCommandEphemeral: boolean;
  uses: number;
  /** A command's or a click's trigger_id: what opens a form (views.open), within 3 s of it. */
  triggerId?: string;
  /** Where the command was typed: a form opened there adds there (its private_metadata). */
  channel?: ChatChannel;
  /** A click on the Home tab: a form it opens says so, and its submit publishes the Home again. */
  isFromHome?: boolean;
}

function slackReason(err: unknown): string {
  const { data, statusCode, code } = (err ?? {}) as {
    data?: { error?: unknown };
    statusCode?: unknown;
    code?: unknown;
  };
  if (typeof data?.error === 'string') return data.error;
  if (typeof statusCode === 'number') return `HTTP ${statusCode}`;
  return typeof code === 'string' ? code : err instanceof Error ? err.name : 'unknown error';
}

export function adapterError(code: AdapterErrorCode, what: string, cause: unknown): AdapterError {
  return new AdapterError({ platform: 'slack', code, message: `${what} (${slackReason(cause)})`, cause });
}

function isExpiredUrl(err: unknown): boolean {
  const status = (err as { statusCode?: unknown } | undefined)?.statusCode;
  return status === 404 || status === 410;
}

interface DeliveryDeps {
  log: CommandLog;
  secrets: readonly string[];
  now: () => number;
}

export type Deliver = (target: ReplyTarget, reply: Reply) => Promise<void>;

export function createDelivery({ log, secrets, now }: DeliveryDeps): Deliver {
  async function post(target: ReplyTarget, message: SlackMessage, isEphemeral: boolean): Promise<void> {
    const isUsable =
      now() - target.startedAtMs < RESPONSE_URL_WINDOW_MS && target.uses < RESPONSE_URL_MAX_USES;
    if (isUsable) {
      target.uses += 1;
      try {
        await target.respond({
          ...message,
          response_type: isEphemeral ? 'ephemeral' : 'in_channel',
          // A page button replaces the list it belongs to; an error about it arrives beside it.
          ...(target.isAction ? { replace_original: !isEphemeral } : {}),
        });
        return;
      } catch (err) {
        if (!isExpiredUrl(err)) throw adapterError('send_failed', 'Slack did not accept the reply', err);
        log.info({ err: describeSdkError(err, secrets) }, 'slack.response_url_expired');
      }
    }
    // The response_url is spent or expired: post through the Web API instead.
    try {
      const args = { channel: target.channelId, text: message.text, blocks: message.blocks };
      if (isEphemeral) await target.client.chat.postEphemeral({ ...args, user: target.userId });
      else await target.client.chat.postMessage(args);
    } catch (err) {
      throw adapterError('expired', 'Slack reply window closed and posting failed', err);
    }
  }

  async function upload(target: ReplyTarget, attachments: readonly SlackFile[]): Promise<void> {
    try {
      // files.getUploadURLExternal → POST the bytes → files.completeUploadExternal (files.upload is gone).
      await target.client.filesUploadV2({
        channel_id: target.channelId,
        file_uploads: attachments.map((a) => ({
          file: Buffer.from(a.bytes),
          filename: a.filename,
          title: a.filename,
          ...(a.description ? { alt_text: a.description } : {}),
        })),
      });
    } catch (err) {
      throw adapterError('upload_failed', 'Slack did not take the file upload', err);
    }
  }

  async function openForm(target: ReplyTarget & { triggerId: string }, form: Form): Promise<void> {
    const where = target.channel ?? { platform: 'slack' as const, id: target.channelId };
    const view = renderSlackModal(form, JSON.stringify(target.isFromHome ? { ...where, home: true } : where));
    try {
      await target.client.views.open({ trigger_id: target.triggerId, view });
    } catch (err) {
      throw adapterError('send_failed', 'Slack did not open the form', err);
    }
  }

  async function deliver(target: ReplyTarget, reply: Reply): Promise<void> {
    // A trigger_id is spent by the first view it opens, and lives 3 s.
    const { triggerId } = target;
    if (reply.form && triggerId !== undefined) {
      delete target.triggerId;
      return openForm({ ...target, triggerId }, reply.form);
    }
    const isEphemeral = reply.ephemeral === true || target.isCommandEphemeral;
    // Files are shared in the channel, which a private reply must not be (renderSlack notes it).
    const { files, ...message } = renderSlack({ ...reply, ephemeral: isEphemeral });
    await post(target, message, isEphemeral);
    if (files.length > 0) await upload(target, files);
  }

  return deliver;
}
