// The replica the interactions bench measures, in its own process: herald's HTTP server with the
// Discord adapter in HTTP mode on it, claiming each interaction in a SQLite store as the bot does,
// answering /weather (a small embed, no upstream). Prints "ready <port>" once listening; answers
// the bench's IPC (interactions-ipc.ts).
import { z } from 'zod';
import { createDiscordAdapter } from '../adapters/discord/adapter.ts';
import { createHttpInteractions, discordPublicKey } from '../adapters/discord/http.ts';
import type { AdapterHandlers } from '../src/core/adapter.ts';
import { defineCommand } from '../src/core/command.ts';
import { createRegistry } from '../src/core/registry.ts';
import { nextTurn } from '../src/core/turns.ts';
import { createRoutes, startHealthServer } from '../src/health.ts';
import { createMetrics } from '../src/metrics.ts';
import { createInteractionWebhookClient } from '../src/services/webhook/discord-interaction.ts';
import { createSqliteStore } from '../src/store/index.ts';
import { answerBenchIpc } from './interactions-ipc.ts';
import { defaultPreferences } from '../src/core/preferences.ts';
import { english } from '../src/i18n/translate.ts';

const registry = createRegistry([
  defineCommand({
    name: 'weather',
    description: 'Current weather',
    options: z.object({ city: z.string().describe('City') }),
    needs: [],
    handler: (input) =>
      Promise.resolve({
        text: `Weather in ${input.city}`,
        embeds: [
          { title: `Weather in ${input.city}`, description: 'light rain, 12 °C', color: 'info' as const },
        ],
      }),
  }),
]);

let commands = 0;
const handlers: AdapterHandlers = {
  async onInvocation(inv) {
    commands += 1;
    const command = registry.get(inv.command)!;
    const input = command.options.parse(inv.rawInput);
    // As the dispatcher does: the checks passed, the adapter defers, the work waits its turn.
    inv.beginWork?.();
    await nextTurn();
    const reply = await command.handler(input, {
      actor: inv.actor,
      services: {},
      log: { debug() {}, info() {}, warn() {}, error() {} },
      signal: inv.signal,
      now: () => new Date(),
      invocationId: 'bench',
      preferences: defaultPreferences('UTC'),
      t: english,
      locale: 'en-GB',
    });
    await inv.respond(reply);
  },
  onAutocomplete: () => Promise.resolve([]),
};

const store = createSqliteStore(process.env.BENCH_STORE ?? ':memory:');
const routes = createRoutes();
const server = await startHealthServer({ port: 0, checks: [], metrics: createMetrics(), routes });
const log = {
  debug() {},
  info() {},
  warn() {},
  error: (_obj: object, msg: string) => process.stderr.write(`${msg}\n`),
};
const interactions = createHttpInteractions({
  publicKey: discordPublicKey(process.env.BENCH_PUBLIC_KEY ?? ''),
  log,
});
routes.add('/interactions', interactions.route);
const applicationId = '1187421520894746624';
const apiUrl = process.env.BENCH_DISCORD_API_URL ?? '';
const webhook = createInteractionWebhookClient({ apiUrl, applicationId });
const adapter = createDiscordAdapter({
  config: {
    token: 'bench-bot-token',
    applicationId,
    guildId: undefined,
    apiUrl,
    mode: 'http',
    publicKey: process.env.BENCH_PUBLIC_KEY,
    interactionsPath: '/interactions',
  },
  log,
  claims: store,
  interactions,
  webhook,
});
await adapter.start(registry, handlers);
process.stdout.write(`ready ${server.port}\n`);
answerBenchIpc(
  () => commands,
  async () => {
    await adapter.stop();
    await webhook.close();
    await server.close();
    await store.close();
  },
);
