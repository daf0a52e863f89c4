// Whether herald may post into a Slack channel, and who reads it, through Slack's own Web API
// client (@slack/web-api's WebClient). What the SDK does not serve: add time's answer of what to
// grant (conversations.info: herald a member and the channel not archived;
// channel_not_found for a private channel herald is not in; missing_scope without channels:read or
// groups:read: https://docs.slack.dev/reference/methods/conversations.info), and whether a given
// user is in a channel, conversations.members paged by cursor within a bound
// (https://docs.slack.dev/reference/methods/conversations.members). Shown by
// test/services/slack-web-api.test.ts and test/schedule/channel.test.ts.
import type { WebClient } from '@slack/web-api';
import { attempt, fromSdkError } from './slack-web-client.ts';

/** Who reads a channel: private or not, and whether a given user is in it. */
export interface SlackAudience {
  isPrivate: boolean;
  isMember?: boolean;
}

/** Whether herald may post into the channel (conversations.info): undefined, or what to grant it. */
export async function checkSlackChannel(
  client: WebClient,
  channelId: string,
): Promise<'slackInvite' | 'slackScopes' | undefined> {
  try {
    const answer = await client.conversations.info({ channel: channelId });
    const channel = answer.channel ?? {};
    if (channel.is_archived === true) return 'slackInvite';
    return channel.is_member === true || channel.is_im === true ? undefined : 'slackInvite';
  } catch (err) {
    const failure = fromSdkError(err, 'conversations.info', channelId);
    if (failure.providerMessage === 'channel_not_found') return 'slackInvite';
    if (failure.providerMessage === 'missing_scope') return 'slackScopes';
    throw failure;
  }
}

/** Slack recommends pages of at most 200 members; 50 of them read a channel of 10,000. */
const MEMBERS_PAGE = 200;
const MEMBERS_PAGES = 50;

/**
 * Whether the channel is private (conversations.info's is_private, is_im, is_mpim) and, given a
 * user, whether they are in it (conversations.members, paged by cursor:
 * https://docs.slack.dev/reference/methods/conversations.members). In a DM with herald, whoever
 * types is in it.
 */
export async function slackAudience(
  client: WebClient,
  channelId: string,
  userId?: string,
): Promise<SlackAudience> {
  const info = await attempt('conversations.info', channelId, () =>
    client.conversations.info({ channel: channelId }),
  );
  const channel = info.channel ?? {};
  const isPrivate = channel.is_private === true || channel.is_im === true || channel.is_mpim === true;
  if (userId === undefined) return { isPrivate };
  if (channel.is_im === true) return { isPrivate, isMember: true };
  let cursor = '';
  for (let page = 0; page < MEMBERS_PAGES; page++) {
    const answer = await attempt('conversations.members', channelId, () =>
      client.conversations.members({
        channel: channelId,
        limit: MEMBERS_PAGE,
        ...(cursor ? { cursor } : {}),
      }),
    );
    if (answer.members?.includes(userId)) return { isPrivate, isMember: true };
    cursor = answer.response_metadata?.next_cursor ?? '';
    if (cursor === '') break;
  }
  return { isPrivate, isMember: false };
}
