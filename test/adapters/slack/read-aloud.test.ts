// Read aloud as a Slack message shortcut, through the real Bolt app in HTTP mode: a signed
// message_action payload, the mentions' names looked up with users.info and conversations.info,
// the real commands on the simulated speech provider, the mp3 uploaded into the channel and the
// invoker's /say budget charged. Without users:read a mention reads as "someone", never its id.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCommands } from '../../../commands/index.ts';
import { createDispatcher } from '../../../src/core/dispatch.ts';
import { createRegistry } from '../../../src/core/registry.ts';
import type { Services } from '../../../src/core/services.ts';
import { loadConfig, SERVICE_VARIABLES } from '../../../src/config/index.ts';
import { sandboxHandlers } from '../../../src/sandbox/index.ts';
import { planServices, resolveServiceConfigs, SANDBOX_CREDENTIAL } from '../../../src/sandbox/resolve.ts';
import { closeServices, createServices } from '../../../src/services/index.ts';
import { createQuotas, createSayCharge, createSayRefund, type Quotas } from '../../../src/user-limits.ts';
import { COMMAND_SETTINGS, SILENT_LOG } from '../../schedule/world.ts';
import { startFake, type SandboxServer } from '../../support/sandbox-server.ts';
import { startSlackHttp, type ServedSlack } from './fake-config.ts';
import { postSigned, startSlackFake, triggerId, waitFor, type SlackFake } from './fakes.ts';

const TEXT =
  '<@U0ALICE> the *deploy* to <#C0RELEASES> is done :tada: see <https://ci.example.com/runs/42|run 42> &amp; <https://www.example.com/status>';

/** A message shortcut's payload as Slack posts it (a form with one `payload` field). */
const BOB = { id: 'U0BOB', name: 'bob' };

function shortcutBody(text: string, responseUrl: string, callbackId = 'read-aloud', by = BOB): string {
  const payload = {
    type: 'message_action',
    token: 'legacy-verification-token',
    action_ts: '1714560010.123456',
    team: { id: 'T0HERALD', domain: 'herald-test' },
    user: { id: by.id, username: by.name, name: by.name, team_id: 'T0HERALD' },
    channel: { id: 'C0GENERAL', name: 'general' },
    is_enterprise_install: false,
    enterprise: null,
    callback_id: callbackId,
    trigger_id: triggerId(),
    response_url: responseUrl,
    message_ts: '1714560000.000200',
    message: {
      type: 'message',
      user: 'U0ALICE',
      ts: '1714560000.000200',
      team: 'T0HERALD',
      client_msg_id: '5a1c6e2e-8f0b-4c55-9a3d-1b2f3c4d5e6f',
      text,
      blocks: [{ type: 'rich_text', block_id: 'Xy1', elements: [] }],
    },
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

describe('Read aloud on Slack, a message shortcut through Bolt', () => {
  let fake: SlackFake;
  let providers: SandboxServer;
  let services: Services;
  let quotas: Quotas;
  let served: ServedSlack;
  let n = 0;

  beforeAll(async () => {
    fake = await startSlackFake();
    providers = await startFake(sandboxHandlers({ credential: SANDBOX_CREDENTIAL }));
    const config = loadConfig({ SANDBOX: 'on' });
    services = createServices(resolveServiceConfigs(config, planServices(config), providers.url));
    quotas = createQuotas({ perUserPerMinute: 100, sayDailyChars: 2_000 });
    const registry = createRegistry(
      buildCommands({
        ...COMMAND_SETTINGS,
        chargeSay: createSayCharge(quotas),
        refundSay: createSayRefund(quotas),
      }),
    );
    const dispatcher = createDispatcher({
      registry,
      services,
      log: SILENT_LOG,
      commandTimeoutMs: 10_000,
      serviceVariables: SERVICE_VARIABLES,
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

  /** Posts the shortcut on `text`; resolves with the answer on response_url and the words spoken. */
  async function readAloud(text: string, by = BOB) {
    const id = `aloud-${++n}`;
    const acked = await postSigned(served.url, shortcutBody(text, fake.responseUrl(id), 'read-aloud', by));
    expect(acked.status).toBe(200);
    const [answer] = await waitFor(
      () => (fake.responses(id).length > 0 ? fake.responses(id) : undefined),
      10_000,
    );
    const spoken = providers.requests.filter((r) => r.pathname.includes('text-to-speech')).at(-1);
    return {
      answer: answer!,
      words: spoken ? (JSON.parse(spoken.body) as { text: string }).text : undefined,
    };
  }

  it('speaks the message with the names looked up, uploads read-aloud.mp3 and charges the budget', async () => {
    const before = (await quotas.sayChars.consume('slack:U0BOB', 0)).remaining;
    const { answer, words } = await readAloud(TEXT);
    const expected = 'alice the deploy to general is done tada see run 42 & a link to example.com.';
    expect(words).toBe(expected);
    expect(answer.response_type).toBe('in_channel');
    expect(JSON.stringify(answer)).toContain('read-aloud.mp3');
    const file = await waitFor(() => fake.shared.find((f) => f.title === 'read-aloud.mp3'), 10_000);
    expect(file.channel).toBe('C0GENERAL');
    expect(file.bytes.byteLength).toBeGreaterThan(0);
    expect(fake.calls('users.info').map((c) => c.get('user'))).toContain('U0ALICE');
    expect(fake.calls('conversations.info').map((c) => c.get('channel'))).toContain('C0RELEASES');
    expect(before - (await quotas.sayChars.consume('slack:U0BOB', 0)).remaining).toBe([...expected].length);
  });

  it('reads a mention as "someone" when the token may not look users up, never as the id', async () => {
    fake.scopes.delete('users:read');
    const { words } = await readAloud('<@U0ADA> lunch?');
    expect(words).toBe('someone lunch?');
  });

  it("speaks and answers in the reader's language: a user whose Slack locale is fr-FR hears French", async () => {
    const amelie = { id: 'U0AMELIE', name: 'amelie' };
    // A user Slack does not know (users.info: user_not_found) is read as the placeholder word.
    const { words } = await readAloud('<@U0NOBODY> <!here> lunch?', amelie);
    expect(words).toBe("quelqu'un tout le monde ici lunch?");
    const { answer } = await readAloud('🎉', amelie);
    expect(answer.text).toMatch(/^Ce message n'a pas de texte à lire à voix haute/);
  });

  it('says in one sentence that a message without words has nothing to read', async () => {
    const speechCalls = () => providers.requests.filter((r) => r.pathname.includes('text-to-speech')).length;
    const before = speechCalls();
    const { answer } = await readAloud('🎉');
    // Every refusal on chat carries its reference for the logs.
    expect(answer.text).toMatch(/^That message has no text to read aloud \(ref [0-9a-f]+\)\.$/);
    expect(answer.response_type).toBe('ephemeral');
    expect(speechCalls()).toBe(before);
  });
});
