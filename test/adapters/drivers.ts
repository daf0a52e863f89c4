// Drivers for the shared adapter contract (contract.ts), one per adapter: the console on piped
// streams, the real discord.js Client against the fake gateway and REST API, and the real Bolt app in
// HTTP mode with signed requests against the fake Web API and response_url, all on loopback.
// The project's undici is loaded before the adapters, as the service clients may load it: no
// adapter may depend on which undici instance installed the process-wide dispatcher.
import 'undici';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createConsoleAdapter } from '../../adapters/console/adapter.ts';
import { createDiscordAdapter } from '../../adapters/discord/adapter.ts';
import type { SlackAdapter } from '../../adapters/slack/adapter.ts';
import { visibleControls } from '../../src/render/text-safety.ts';
import { actionToCommandLine } from '../../src/core/reply.ts';
import type { AdapterDriver, Delivered, Sent } from './contract.ts';
import {
  buttonClick,
  slashCommand,
  startFakeDiscord,
  USER_ID,
  type DiscordCall,
  type OptionValue,
} from './discord/fake-discord.ts';
import { fakeDiscordConfig } from './discord/fake-config.ts';
import { buttonBody, postSigned, slashBody, startSlackFake } from './slack/fakes.ts';
import { fakeSlackConfig, serveSlack } from './slack/fake-config.ts';

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const EPHEMERAL = 64;

/** `key:value` argument text, as typed on the console or after a Slack slash command. */
function argumentText(command: string, input: Record<string, string | number | boolean>): string {
  return actionToCommandLine({ label: '', command, input })
    .slice(command.length + 1)
    .trim();
}

export async function consoleDriver(): Promise<AdapterDriver> {
  const dir = await mkdtemp(join(tmpdir(), 'herald-contract-'));
  const input = new PassThrough();
  const output = new PassThrough();
  let stdout = '';
  output.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const adapter = createConsoleAdapter({ input, output, audioDir: dir, log: quiet, isTTY: false });

  /** The reply blocks printed under one command line: `> line` (controls escaped), the block, a blank line. */
  const blocks = (line: string): string[] =>
    stdout
      .split(`> ${visibleControls(line)}\n`)
      .slice(1)
      .map((rest) => rest.split('\n\n> ')[0]!.replace(/\n+$/, ''));
  const type = (line: string): Sent => {
    input.write(`${line}\n`);
    return { id: line };
  };

  return {
    platform: 'console',
    invokerId: 'local',
    hasAudience: false,
    showsLoading: false,
    start: async (registry, handlers) => {
      await adapter.start(registry, handlers);
      return adapter;
    },
    send: (command, values) => Promise.resolve(type(`/${command} ${argumentText(command, values)}`.trim())),
    activity: (sent) => blocks(sent.id).length,
    delivered: (sent) =>
      Promise.all(
        blocks(sent.id).map(async (block) => {
          const lines = block.split('\n');
          const paths = lines.flatMap((l) => /^Saved .+ to (\/.+)$/.exec(l)?.[1] ?? []);
          return {
            text: block,
            isPrivate: true, // a terminal has one reader
            files: await Promise.all(
              paths.map(async (p) => ({ name: basename(p), bytes: new Uint8Array(await readFile(p)) })),
            ),
            actions: lines.flatMap((l) => {
              const m = /^\[(.+?)\] (\/.+)$/.exec(l);
              return m ? [{ label: m[1]!, ref: m[2]! }] : [];
            }),
          };
        }),
      ),
    click: (message, label) =>
      Promise.resolve(type(message.actions.find((a) => a.label === label)!.ref as string)),
    stop: () => adapter.stop(),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

export async function discordDriver(): Promise<AdapterDriver> {
  const fake = await startFakeDiscord();
  const adapter = createDiscordAdapter({
    config: fakeDiscordConfig(fake),
    webhook: fake.webhook,
    log: quiet,
  });
  let count = 0;
  const calls = (sent: Sent): DiscordCall[] => fake.calls.filter((c) => c.token === sent.id);
  const dispatch = (payload: { token: string }): Sent => {
    fake.dispatch('INTERACTION_CREATE', payload);
    return { id: payload.token };
  };
  const nextToken = () => `contract-interaction-${++count}-aW50ZXJhY3Rpb24`;
  /** For a clicked button, whether the message it sits on was private. */
  const clickedPrivately = new Map<string, boolean>();

  function toDelivered(call: DiscordCall, isPrivate: boolean): Delivered {
    const json = call.json ?? {};
    const embeds = (json.embeds ?? []) as {
      title?: string;
      description?: string;
      fields?: { value: string }[];
    }[];
    const rows = (json.components ?? []) as { components: { label: string; custom_id: string }[] }[];
    return {
      text: [
        json.content as string,
        ...embeds.flatMap((e) => [e.title, e.description, ...(e.fields ?? []).map((f) => f.value)]),
      ]
        .filter((t) => typeof t === 'string' && t !== '')
        .join('\n'),
      isPrivate,
      files: call.files.map((f) => ({ name: f.name, bytes: f.bytes })),
      actions: rows.flatMap((r) => r.components.map((b) => ({ label: b.label, ref: b.custom_id }))),
    };
  }

  return {
    platform: 'discord',
    invokerId: USER_ID,
    hasAudience: true,
    showsLoading: true,
    start: async (registry, handlers) => {
      await adapter.start(registry, handlers);
      return adapter;
    },
    send: (command, values) => {
      const [name, subcommand] = command.split(' ') as [string, string | undefined];
      const options: OptionValue[] = Object.entries(values).map(([key, value]) => ({
        name: key,
        type:
          typeof value === 'boolean' ? 5 : typeof value === 'string' ? 3 : Number.isInteger(value) ? 4 : 10,
        value,
      }));
      return Promise.resolve(dispatch(slashCommand({ name, subcommand, options, token: nextToken() })));
    },
    activity: (sent) => calls(sent).length,
    delivered: (sent) => {
      const own = calls(sent);
      const callback = own.find((c) => c.kind === 'callback');
      // A deferred reply (type 5) fixes its visibility; a deferred update keeps the clicked message's.
      const data = callback?.json?.data as { flags?: number } | undefined;
      const isOriginalPrivate =
        callback?.json?.type === 6
          ? (clickedPrivately.get(sent.id) ?? false)
          : ((data?.flags ?? 0) & EPHEMERAL) > 0;
      const original = own.filter((c) => c.kind === 'edit').at(-1);
      const isDeleted = own.some((c) => c.kind === 'delete');
      const out: Delivered[] = [];
      // A first answer that is a message (type 4): a refusal before any work, private.
      if (callback?.json?.type === 4) out.push(toDelivered({ ...callback, json: data }, true));
      if (original && !isDeleted) out.push(toDelivered(original, isOriginalPrivate));
      for (const followup of own.filter((c) => c.kind === 'followup')) {
        out.push(toDelivered(followup, (((followup.json?.flags as number) ?? 0) & EPHEMERAL) > 0));
      }
      return Promise.resolve(out);
    },
    click: (message, label) => {
      const customId = message.actions.find((a) => a.label === label)!.ref as string;
      const token = nextToken();
      clickedPrivately.set(token, message.isPrivate);
      return Promise.resolve(
        dispatch(buttonClick({ customId, token, messageFlags: message.isPrivate ? EPHEMERAL : 0 })),
      );
    },
    stop: () => adapter.stop(),
    close: () => fake.close(),
  };
}

/** Slack's slash command text arrives with its three control characters entity-escaped. */
function slackEncode(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
function slackDecode(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

export async function slackDriver(): Promise<AdapterDriver> {
  const fake = await startSlackFake();
  const served = await serveSlack({ config: fakeSlackConfig(fake), log: quiet });
  const adapter: SlackAdapter = served.adapter;
  const eventsUrl = served.url;
  let count = 0;
  /** Where each command's requests begin in the fake's log, to attribute file uploads. */
  const startedAt = new Map<string, number>();

  async function post(body: (responseUrl: string) => string): Promise<Sent> {
    const id = `contract-${++count}`;
    startedAt.set(id, fake.server.requests.length);
    try {
      await postSigned(eventsUrl, body(fake.responseUrl(id)));
    } catch {
      // A stopped adapter no longer listens: the platform's request goes nowhere.
    }
    return { id };
  }

  function uploads(sent: Sent): { name: string; bytes: Uint8Array }[] {
    const from = startedAt.get(sent.id) ?? 0;
    const later = [...startedAt.values()].filter((n) => n > from);
    const to = later.length > 0 ? Math.min(...later) : fake.server.requests.length;
    return fake.server.requests
      .slice(from, to)
      .filter((r) => r.pathname === '/api/files.completeUploadExternal')
      .flatMap(
        (r) =>
          JSON.parse(new URLSearchParams(r.body).get('files') ?? '[]') as { id: string; title: string }[],
      )
      .map((f) => ({ name: f.title, bytes: fake.uploads.get(f.id) ?? new Uint8Array() }));
  }

  return {
    platform: 'slack',
    invokerId: 'U0ALICE',
    hasAudience: true,
    showsLoading: false,
    start: async (registry, handlers) => {
      await adapter.start(registry, handlers);
      return adapter;
    },
    send: (command, values) => {
      const [name, ...sub] = command.split(' ');
      const text = [...sub, argumentText(command, values)].join(' ').trim();
      return post((url) => slashBody(`/${name}`, slackEncode(text), url));
    },
    activity: (sent) => fake.responses(sent.id).length + uploads(sent).length,
    delivered: (sent) => {
      const files = uploads(sent);
      return Promise.resolve(
        fake.responses(sent.id).map((body, i, all) => {
          const blocks = (body.blocks ?? []) as { type: string; elements?: unknown[] }[];
          const texts = JSON.stringify(blocks).match(/"text":"(?:[^"\\]|\\.)*"/g) ?? [];
          const buttons = blocks
            .filter((b) => b.type === 'actions')
            .flatMap((b) => b.elements as { action_id: string; value: string; text: { text: string } }[]);
          return {
            text: slackDecode(
              [body.text as string, ...texts.map((t) => JSON.parse(t.slice(7)) as string)].join('\n'),
            ),
            isPrivate: body.response_type === 'ephemeral',
            // Files are shared in the channel right after the message they belong to.
            files: i === all.length - 1 ? files : [],
            actions: buttons.map((b) => ({ label: slackDecode(b.text.text), ref: b })),
          };
        }),
      );
    },
    click: (message, label) => {
      const button = message.actions.find((a) => a.label === label)!.ref as {
        action_id: string;
        value: string;
        text: { text: string };
      };
      return post((url) =>
        buttonBody({ action_id: button.action_id, value: button.value, text: button.text.text }, url),
      );
    },
    stop: () => adapter.stop(),
    close: async () => {
      await served.stop();
      await fake.server.close();
    },
  };
}
