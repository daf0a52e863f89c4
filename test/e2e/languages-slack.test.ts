// Replies in the reader's language on Slack, end to end through the real Bolt app in HTTP mode:
// a user whose users.info locale is fr-FR gets French (the locale asked once, with
// include_locale, and kept), an English-speaking user gets en-GB, and a /settings language wins.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCommands } from '../../commands/index.ts';
import { createDispatcher } from '../../src/core/dispatch.ts';
import { createPreferenceBook, type PreferenceBook } from '../../src/core/preferences.ts';
import { createRegistry } from '../../src/core/registry.ts';
import type { Services } from '../../src/core/services.ts';
import { loadConfig, SERVICE_VARIABLES } from '../../src/config/index.ts';
import { sandboxHandlers } from '../../src/sandbox/index.ts';
import { planServices, resolveServiceConfigs, SANDBOX_CREDENTIAL } from '../../src/sandbox/resolve.ts';
import { closeServices, createServices } from '../../src/services/index.ts';
import { COMMAND_SETTINGS, SILENT_LOG } from '../schedule/world.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { startSlackHttp, type ServedSlack } from '../adapters/slack/fake-config.ts';
import {
  postSigned,
  slashPayload,
  startSlackFake,
  waitFor,
  type SlackFake,
} from '../adapters/slack/fakes.ts';

function memoryValues() {
  const values = new Map<string, string>();
  return {
    getValue: (key: string) => Promise.resolve(values.get(key)),
    setValue: (key: string, value: string) => Promise.resolve(Boolean(values.set(key, value))),
    deleteValues: (prefix: string) => {
      const keys = [...values.keys()].filter((k) => k.startsWith(prefix));
      for (const key of keys) values.delete(key);
      return Promise.resolve(keys.length);
    },
  };
}

describe('Slack replies in the reader’s language', () => {
  let fake: SlackFake;
  let providers: SandboxServer;
  let services: Services;
  let served: ServedSlack;
  let book: PreferenceBook;
  let n = 0;

  beforeAll(async () => {
    fake = await startSlackFake();
    providers = await startFake(sandboxHandlers({ credential: SANDBOX_CREDENTIAL }));
    const config = loadConfig({ SANDBOX: 'on' });
    services = createServices(resolveServiceConfigs(config, planServices(config), providers.url));
    const registry = createRegistry(buildCommands(COMMAND_SETTINGS));
    book = createPreferenceBook(memoryValues(), { timezone: 'UTC' });
    const dispatcher = createDispatcher({
      registry,
      services,
      log: SILENT_LOG,
      commandTimeoutMs: 10_000,
      serviceVariables: SERVICE_VARIABLES,
      preferences: book,
    });
    served = await startSlackHttp(fake, registry, dispatcher, SILENT_LOG);
  });

  afterAll(async () => {
    await served?.stop();
    await closeServices(services);
    await providers?.close();
    await fake?.server.close();
  });

  beforeEach(() => {
    fake.scopes.add('users:read');
  });

  /** /weather Paris typed by `user`; the answer on response_url. */
  async function weatherBy(user: { id: string; name: string }) {
    const id = `lang-${++n}`;
    const body = {
      ...slashPayload('/weather', 'Paris', fake.responseUrl(id)),
      user_id: user.id,
      user_name: user.name,
    };
    const acked = await postSigned(served.url, new URLSearchParams(body).toString());
    expect(acked.status).toBe(200);
    const [answer] = await waitFor(
      () => (fake.responses(id).length > 0 ? fake.responses(id) : undefined),
      10_000,
    );
    return JSON.stringify(answer);
  }

  const amelie = { id: 'U0AMELIE', name: 'amelie' };

  it('answers a user whose Slack locale is fr-FR in French, with French numbers', async () => {
    const answer = await weatherBy(amelie);
    expect(answer).toContain('Météo à Paris');
    expect(answer).toMatch(/-?\d+,\d °C/);
    const asked = fake.calls('users.info').filter((c) => c.get('user') === amelie.id);
    expect(asked.map((c) => c.get('include_locale'))).toEqual(['true']);
  });

  it('asks Slack for a user’s locale once, not on every command', async () => {
    await weatherBy(amelie);
    await weatherBy(amelie);
    expect(fake.calls('users.info').filter((c) => c.get('user') === amelie.id)).toHaveLength(1);
  });

  it('answers an English-speaking user in en-GB, and lets /settings language: win', async () => {
    expect(await weatherBy({ id: 'U0ADA', name: 'ada' })).toContain('Weather in Paris');
    await book.write({ kind: 'user', actor: { platform: 'slack', id: amelie.id } }, { language: 'de' });
    expect(await weatherBy(amelie)).toContain('Wetter in Paris');
  });
});
