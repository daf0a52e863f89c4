// What Discord sends and answers in the interactions bench: a PING, a /weather interaction with
// the fields Discord sends today, and Discord's REST API as far as the edits of @original go.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const PING_BODY = JSON.stringify({
  id: '1187421520894746001',
  application_id: '1187421520894746624',
  type: 1,
  token: 'bench-ping-token',
  version: 1,
});

let ids = 1_300_000_000_000_000_000n;
export function interaction(type: number, token: string): Record<string, unknown> {
  ids += 1n;
  const user = {
    id: '80351110224678912',
    username: 'nelly',
    discriminator: '0',
    global_name: 'Nelly',
    avatar: null,
  };
  return {
    id: ids.toString(),
    application_id: '1187421520894746624',
    type,
    token,
    version: 1,
    guild_id: '1187421520894746700',
    channel_id: '1187421520894746711',
    channel: { id: '1187421520894746711', type: 0, guild_id: '1187421520894746700', name: 'general' },
    member: {
      user,
      roles: [],
      joined_at: '2023-01-01T00:00:00.000Z',
      deaf: false,
      mute: false,
      flags: 0,
      permissions: '2248473465835073',
      nick: null,
      avatar: null,
      pending: false,
    },
    locale: 'en-GB',
    app_permissions: '2248473465835073',
    entitlements: [],
    authorizing_integration_owners: { '0': '1187421520894746700' },
    context: 0,
    attachment_size_limit: 10_485_760,
    ...(type === 2
      ? {
          data: {
            id: '1187421520894746900',
            name: 'weather',
            type: 1,
            options: [{ name: 'city', type: 3, value: 'Oslo' }],
          },
        }
      : {}),
  };
}

const MESSAGE = JSON.stringify({
  id: '1187421520894747000',
  channel_id: '1187421520894746711',
  type: 0,
  content: '',
  author: { id: '1187421520894746624', username: 'herald', discriminator: '0', avatar: null, bot: true },
  embeds: [],
  attachments: [],
  components: [],
  mentions: [],
  mention_roles: [],
  mention_everyone: false,
  pinned: false,
  tts: false,
  timestamp: '2026-11-27T00:00:00.000Z',
  edited_timestamp: null,
  flags: 0,
});

/** Discord's REST API as far as the edits of @original go: counts them, answers with a message. */
export async function startRestSink() {
  let edits = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'PATCH' && req.url?.includes('/messages/')) edits += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(MESSAGE);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    edits: () => edits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
