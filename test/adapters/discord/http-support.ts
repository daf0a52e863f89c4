// Discord's side of the HTTP interactions endpoint for tests: an Ed25519 key pair like an
// application's, requests signed as Discord signs them, and herald's HTTP server with the adapter.
import type { ComponentState } from '../../../src/core/component-state.ts';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { createDiscordAdapter } from '../../../adapters/discord/adapter.ts';
import { createHttpInteractions, discordPublicKey } from '../../../adapters/discord/http.ts';
import type { InteractionWebhook } from '../../../adapters/discord/respond.ts';
import type { AdapterHandlers, ChatAdapter, CommandRegistry, Invocation } from '../../../src/core/adapter.ts';
import type { InteractionClaims } from '../../../src/core/claims.ts';
import { defineCommand, type CommandLog } from '../../../src/core/command.ts';
import type { Reply } from '../../../src/core/reply.ts';
import { createRegistry } from '../../../src/core/registry.ts';
import { nextTurn } from '../../../src/core/turns.ts';
import { withRef } from '../../../src/core/dispatch-steps.ts';
import { userMessageFor } from '../../../src/errors.ts';
import {
  createRoutes,
  startHealthServer,
  type ConnectionLimits,
  type HealthServer,
} from '../../../src/health.ts';
import { createMetrics } from '../../../src/metrics.ts';
import { APP_ID, BOT_TOKEN } from './fake-discord.ts';
import { directContext } from '../../support/command-doubles.ts';

export interface KeyPair {
  privateKey: KeyObject;
  /** The 64 hex digits the Developer Portal shows as the application's public key. */
  publicKeyHex: string;
}

export function generateKeys(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return { privateKey, publicKeyHex: Buffer.from(jwk.x ?? '', 'base64url').toString('hex') };
}

export function signedHeaders(
  keys: Pick<KeyPair, 'privateKey'>,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const signature = sign(null, Buffer.from(`${timestamp}${body}`), keys.privateKey).toString('hex');
  return {
    'content-type': 'application/json',
    'user-agent': 'Discord-Interactions/1.0 (+https://discord.com)',
    'x-signature-ed25519': signature,
    'x-signature-timestamp': String(timestamp),
  };
}

export async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs = 5_000,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  return { status: res.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

export const MP3 = new Uint8Array([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f]);

/** A real 1×1 PNG, as a chart command attaches one. */
export const PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
);

export const registry = createRegistry([
  defineCommand({
    name: 'weather',
    description: 'Current weather',
    options: z.object({ city: z.string().describe('City') }),
    needs: [],
    handler: (input) =>
      Promise.resolve({
        text: `Weather in ${input.city}`,
        embeds: [{ title: `Weather in ${input.city}`, description: 'light rain', color: 'info' as const }],
        actions: [{ label: 'Refresh', command: 'weather', input: { city: input.city } }],
      }),
  }),
  defineCommand({
    name: 'say',
    description: 'Speak',
    options: z.object({ text: z.string().describe('Text'), voice: z.string().optional().describe('Voice') }),
    needs: [],
    ephemeral: true,
    autocomplete: {
      voice: (partial) =>
        Promise.resolve(
          [
            { name: 'Rachel', value: '21m00Tcm4TlvDq8ikWAM' },
            { name: 'Adam', value: 'pNInz6obpgDQGcFmaJgB' },
          ].filter((v) => v.name.toLowerCase().startsWith(partial.toLowerCase())),
        ),
    },
    handler: (input) =>
      Promise.resolve({
        text: `“${input.text}” read aloud`,
        attachments: [{ filename: 'say.mp3', contentType: 'audio/mpeg', bytes: MP3 }],
      }),
  }),
  defineCommand({
    name: 'chart',
    description: 'A chart',
    options: z.object({}),
    needs: [],
    handler: () =>
      Promise.resolve({
        text: 'Sessions: 1,204',
        embeds: [{ title: 'Analytics', fields: [{ name: 'Sessions', value: '1,204' }], image: 'report.png' }],
        attachments: [
          { filename: 'report.png', contentType: 'image/png', bytes: PNG, description: 'Line chart' },
        ],
      }),
  }),
  defineCommand({
    name: 'broken',
    description: 'Always fails',
    options: z.object({}),
    needs: [],
    handler: () => Promise.reject(new Error('the upstream is down')),
  }),
]);

/**
 * A small stand-in for the dispatcher: run, turn errors into one private sentence, answer once, and
 * log an answer that could not be sent as the dispatcher does (`command.respond_failed`).
 */
/** The reference the stand-in dispatcher gives every failure. */
export const FAKE_REF = 'f00dfeed';

/** A stand-in for the dispatcher; `onWork` is told as each command's handler starts. */
export function createHandlers(
  runs: Invocation[],
  log?: CommandLog,
  onWork?: (inv: Invocation) => void,
): AdapterHandlers {
  const silent: CommandLog = { debug() {}, info() {}, warn() {}, error() {} };
  return {
    async onInvocation(inv) {
      runs.push(inv);
      let reply: Reply;
      try {
        const command = registry.get(inv.command)!;
        const input = command.options.parse(inv.rawInput);
        // As the dispatcher: the checks passed, the work begins on its turn.
        inv.beginWork?.();
        await nextTurn();
        onWork?.(inv);
        reply = await command.handler(input, directContext(inv, 'http-test'));
      } catch (err) {
        reply = { text: withRef(userMessageFor(err), FAKE_REF), ephemeral: true, failureRef: FAKE_REF };
      }
      try {
        await inv.respond(reply);
      } catch (err) {
        (log ?? silent).error({ err, command: inv.command }, 'command.respond_failed');
      }
    },
    async onAutocomplete(request) {
      const fn = registry.get(request.command)?.autocomplete[request.option];
      return fn ? fn(request.partial, directContext(request, 'http-test')) : [];
    },
  };
}

export interface HttpReplica {
  adapter: ChatAdapter;
  server: HealthServer;
  url: string;
  runs: Invocation[];
  stop(): Promise<void>;
}

/** herald's HTTP server on a free loopback port with a Discord adapter in HTTP mode on it. */
export async function startHttpReplica(opts: {
  keys: KeyPair;
  apiUrl: string;
  /** The fake Discord's interaction webhook client (fake-discord.ts). */
  webhook: InteractionWebhook;
  log: CommandLog;
  claims?: InteractionClaims;
  path?: string;
  /** What runs the commands; createHandlers' stand-in for the dispatcher by default. */
  handlers?: (runs: Invocation[]) => AdapterHandlers;
  /** The commands the adapter knows (their visibility decides the deferral's); this file's by default. */
  registry?: CommandRegistry;
  /** The public server's bounds; its defaults otherwise. */
  limits?: ConnectionLimits;
  /** Where long button targets are kept; in the adapter's process by default. */
  buttonTargets?: ComponentState;
}): Promise<HttpReplica> {
  const routes = createRoutes();
  const server = await startHealthServer({
    port: 0,
    checks: [],
    metrics: createMetrics(),
    routes,
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
  const path = opts.path ?? '/interactions';
  const interactions = createHttpInteractions({
    publicKey: discordPublicKey(opts.keys.publicKeyHex),
    log: opts.log,
  });
  routes.add(path, interactions.route);
  const adapter = createDiscordAdapter({
    config: {
      token: BOT_TOKEN,
      applicationId: APP_ID,
      guildId: undefined,
      apiUrl: opts.apiUrl,
      mode: 'http',
      publicKey: opts.keys.publicKeyHex,
      interactionsPath: path,
    },
    log: opts.log,
    webhook: opts.webhook,
    claims: opts.claims,
    interactions,
    ...(opts.buttonTargets ? { buttonTargets: opts.buttonTargets } : {}),
  });
  const runs: Invocation[] = [];
  await adapter.start(opts.registry ?? registry, opts.handlers?.(runs) ?? createHandlers(runs, opts.log));
  return {
    adapter,
    server,
    url: `http://127.0.0.1:${server.port}${path}`,
    runs,
    async stop() {
      await adapter.stop();
      await server.close();
    },
  };
}
