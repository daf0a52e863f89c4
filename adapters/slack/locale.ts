// A Slack user's locale (users.info with include_locale, which needs users:read,
// https://docs.slack.dev/reference/methods/users.info), read only where /settings set no language,
// and kept for an hour so a busy user costs one request an hour, not one a command.
import type { webApi } from '@slack/bolt';
import { LRUCache } from 'lru-cache';
import type { CommandLog } from '../../src/core/command.ts';
import { describeSdkError } from './bolt-log.ts';

const LOCALE_TTL_MS = 60 * 60_000;
const MAX_USERS = 10_000;
/** users.info is Tier 4, and the command's answer waits for it: a slow lookup is no locale. */
const LOOKUP_TIMEOUT_MS = 2_000;

type UserLocales = (userId: string) => Promise<string | undefined>;

export function createUserLocales(
  client: webApi.WebClient,
  deps: { log: CommandLog; secrets: readonly string[] },
): UserLocales {
  // An empty string: asked, and Slack gave none; not asked again within the hour.
  const cache = new LRUCache<string, string>({
    max: MAX_USERS,
    ttl: LOCALE_TTL_MS,
    fetchMethod: async (user) => {
      try {
        const res = await client.users.info({ user, include_locale: true });
        return res.user?.locale ?? '';
      } catch (err) {
        deps.log.info({ err: describeSdkError(err, deps.secrets) }, 'slack.locale_unknown');
        return '';
      }
    },
  });
  return async (userId) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), LOOKUP_TIMEOUT_MS);
    });
    try {
      return (await Promise.race([cache.fetch(userId), timeout])) || undefined;
    } finally {
      clearTimeout(timer);
    }
  };
}
