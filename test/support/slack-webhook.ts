// A fake Slack incoming webhook on loopback, answering as Slack documents
// (https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks): 200 with the text
// `ok`; 404 `no_service` for an unknown webhook; 400 `invalid_payload` for a body that is not a
// message, `invalid_blocks` for blocks breaking Block Kit's limits; each as text/html like Slack's.
import { http, HttpResponse } from 'msw';
import { SLACK_LIMITS } from '../../src/domain/slack.ts';

export const SLACK_TEAM = 'T0123ABCD';
export const SLACK_HOOK = 'B0456EFGH';
export const SLACK_SECRET = 'xY7fakeSlackHookSecret0123';

export interface SlackHookInbox {
  messages: { text?: string; blocks?: unknown[]; [key: string]: unknown }[];
}

const text = (body: string, status: number) =>
  new HttpResponse(body, { status, headers: { 'content-type': 'text/html' } });

/** Why Slack would answer invalid_blocks, or undefined. */
function blocksProblem(blocks: unknown[]): string | undefined {
  if (blocks.length > SLACK_LIMITS.blocks) return 'too many blocks';
  for (const block of blocks as { type?: string; text?: { text?: string }; fields?: { text: string }[] }[]) {
    if (block.type === 'section' && (block.text?.text?.length ?? 0) > SLACK_LIMITS.sectionText)
      return 'section text too long';
    if (block.type === 'section' && (block.fields?.length ?? 0) > SLACK_LIMITS.sectionFields)
      return 'too many fields';
    if (block.type === 'header' && (block.text?.text?.length ?? 0) > SLACK_LIMITS.headerText)
      return 'header too long';
  }
  return undefined;
}

export function slackWebhookHandlers(inbox: SlackHookInbox) {
  return [
    http.post('*/services/:team/:hook/:secret', async ({ request, params }) => {
      if (params.team !== SLACK_TEAM || params.hook !== SLACK_HOOK || params.secret !== SLACK_SECRET)
        return text('no_service', 404);
      let body: SlackHookInbox['messages'][number];
      try {
        body = (await request.json()) as SlackHookInbox['messages'][number];
      } catch {
        return text('invalid_payload', 400);
      }
      if (typeof body !== 'object' || body === null || (body.text === undefined && body.blocks === undefined))
        return text('invalid_payload', 400);
      if (body.blocks !== undefined && (!Array.isArray(body.blocks) || blocksProblem(body.blocks)))
        return text('invalid_blocks', 400);
      inbox.messages.push(body);
      return text('ok', 200);
    }),
  ];
}

/** The webhook's address on a fake server at `base` (http://127.0.0.1:port). */
export function slackHookUrl(base: string): string {
  return `${base}/services/${SLACK_TEAM}/${SLACK_HOOK}/${SLACK_SECRET}`;
}
