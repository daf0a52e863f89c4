// The names Read aloud says for a Slack message's mentions: users.info (users:read) and
// conversations.info (channels:read, groups:read) with the bot token. A name Slack will not give
// (a missing scope, a private channel herald is not in, a user of another workspace) stays
// unknown, and the message reads "someone" or "a channel" there.
import type { webApi } from '@slack/bolt';
import type { CommandLog } from '../../src/core/command.ts';
import { describeSdkError } from './bolt-log.ts';
import type { SlackNames } from './message-words.ts';

/** Lookups per message and kind: a message naming more is rare, and each lookup is a request. */
const MAX_LOOKUPS = 20;

type Lookup = (id: string) => Promise<string | undefined>;

async function namesOf(ids: readonly string[], lookUp: Lookup): Promise<Map<string, string>> {
  const found = await Promise.all(
    ids.slice(0, MAX_LOOKUPS).map(async (id) => [id, await lookUp(id)] as const),
  );
  return new Map(found.filter((pair): pair is readonly [string, string] => !!pair[1]));
}

export async function lookUpNames(
  client: webApi.WebClient,
  ids: { users: readonly string[]; channels: readonly string[] },
  deps: { log: CommandLog; secrets: readonly string[] },
): Promise<SlackNames> {
  const unknown = (kind: string) => (err: unknown) => {
    deps.log.info({ err: describeSdkError(err, deps.secrets), kind }, 'slack.name_unknown');
    return undefined;
  };
  const [users, channels] = await Promise.all([
    namesOf(ids.users, (user) =>
      client.users.info({ user }).then((res) => {
        const profile = res.user?.profile;
        return profile?.display_name || profile?.real_name || res.user?.real_name || res.user?.name;
      }, unknown('user')),
    ),
    namesOf(ids.channels, (channel) =>
      client.conversations.info({ channel }).then((res) => res.channel?.name, unknown('channel')),
    ),
  ]);
  return { users, channels };
}
