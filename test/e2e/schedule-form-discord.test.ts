// /schedule add's form on Discord end to end, on the real dispatcher and schedule service: the real
// discord.js client on the fake gateway, and signed raw interactions in HTTP mode. `/schedule add`
// with no options answers with a modal (type 9) built from the command's options; its submit adds
// the same record as the typed options; a refused submit answers privately, in the typed line's
// sentence, with a button that opens the modal again filled in. The fake refuses what Discord
// refuses of a modal and of components (fake-discord.ts, invalidModal and invalidComponents).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAdapter } from '../../src/core/adapter.ts';
import { closeChannelClients, createChannelClients, type ChannelClients } from '../../src/destinations.ts';
import { readAudit } from '../../src/schedule/audit.ts';
import type { ScheduleRecord } from '../../src/schedule/schedules.ts';
import {
  APP_ID,
  BOT_TOKEN,
  USER_ID,
  buttonClick,
  modalSubmit,
  slashCommand,
  startFakeDiscord,
  type DiscordCall,
  type FakeDiscord,
  type OptionValue,
} from '../adapters/discord/fake-discord.ts';
import { startDiscordGateway } from '../adapters/discord/fake-config.ts';
import {
  generateKeys,
  post,
  signedHeaders,
  startHttpReplica,
  type HttpReplica,
} from '../adapters/discord/http-support.ts';
import { OPERATOR, SILENT_LOG, startWorld, type World } from '../schedule/world.ts';

let fake: FakeDiscord;
let channels: ChannelClients;
let world: World;
let adapter: ChatAdapter;
let n = 0;
const keys = generateKeys();
let http: HttpReplica;

beforeAll(async () => {
  fake = await startFakeDiscord();
  channels = createChannelClients({ discord: { token: BOT_TOKEN, apiUrl: fake.apiUrl } });
  world = await startWorld({ channels, allow: { users: [USER_ID], roles: [] } });
  adapter = await startDiscordGateway(fake, world.registry, world.dispatcher, SILENT_LOG);
  http = await startHttpReplica({
    keys,
    apiUrl: fake.apiUrl,
    webhook: fake.webhook,
    log: SILENT_LOG,
    registry: world.registry,
    handlers: () => world.dispatcher,
  });
});
afterAll(async () => {
  await http.stop();
  await adapter.stop();
  await closeChannelClients(channels);
  await world.close();
  await fake.close();
});

const token = () => `form-${++n}-aW50ZXJhY3Rpb246`;
const ADD = { name: 'schedule', subcommand: 'add' };
const withoutRef = (text: unknown) => String(text).replace(/ \(ref [0-9a-f]{8}\)/, '');

interface ModalJson {
  custom_id: string;
  title: string;
  components: { type: number; components: Record<string, unknown>[] }[];
}

/** Dispatches `packet` on the gateway and resolves with the callback Discord received for it. */
async function gateway(packet: { token: string; member?: unknown }): Promise<DiscordCall> {
  fake.dispatch('INTERACTION_CREATE', packet);
  return fake.waitFor((c) => c.token === packet.token && c.kind === 'callback', 10_000);
}

/** The schedule added last, without what differs between two adds (its id and time). */
async function lastAdded(): Promise<Partial<ScheduleRecord>> {
  const records = await world.store.listSchedules();
  const { id: _id, createdAt: _at, ...rest } = records.at(-1)!;
  return rest;
}

describe('/schedule add with no options on Discord, through the real discord.js client', () => {
  let modal: ModalJson;

  it('opens a modal of the command’s options (type 9), within Discord’s limits', async () => {
    const callback = await gateway(slashCommand({ ...ADD, token: token() }));
    expect(callback.json?.type).toBe(9);
    modal = callback.json!.data as ModalJson;
    expect(modal.title).toBe('New schedule');
    const inputs = modal.components.map((row) => row.components[0]!);
    expect(inputs.map((i) => i.custom_id)).toEqual(['when', 'command', 'to', 'tz', 'more']);
    expect(inputs.map((i) => i.required)).toEqual([true, true, false, false, false]);
    // The bounds are the zod schema's: when ≤ 200, command ≤ 1000 (a paragraph), to ≤ 32, tz ≤ 64.
    expect(inputs.map((i) => i.max_length)).toEqual([200, 1000, 32, 64, 1000]);
    expect(inputs[1]).toMatchObject({ style: 2, placeholder: expect.stringContaining('/weather Oslo') });
    expect(fake.contract.counts.invalid).toBe(0);
  });

  it('its submit adds the same record as the typed options, answered with the same reply', async () => {
    const typed: OptionValue[] = [
      { name: 'when', type: 3, value: 'every weekday at 07:30' },
      { name: 'command', type: 3, value: '/weather Oslo units:imperial' },
      { name: 'tz', type: 3, value: 'Europe/Berlin' },
    ];
    const typedToken = token();
    fake.dispatch('INTERACTION_CREATE', slashCommand({ ...ADD, token: typedToken, options: typed }));
    const typedEdit = await fake.waitFor((c) => c.token === typedToken && c.kind === 'edit', 10_000);
    const typedRecord = await lastAdded();

    const submitToken = token();
    const values = {
      when: 'every weekday at 07:30',
      command: '/weather Oslo units:imperial',
      to: '',
      tz: 'Europe/Berlin',
      more: '',
    };
    const deferral = await gateway(modalSubmit({ customId: modal.custom_id, token: submitToken, values }));
    expect(deferral.json).toEqual({ type: 5, data: {} });
    const edit = await fake.waitFor((c) => c.token === submitToken && c.kind === 'edit', 10_000);
    expect(await lastAdded()).toEqual(typedRecord);
    expect((await world.store.listSchedules()).length).toBe(2);
    const title = (call: DiscordCall) => (call.json?.embeds as { title: string }[])[0]!.title;
    expect(title(edit)).toMatch(/^Schedule \w+ added$/);
    expect(title(edit).replace(/\w+ added/, '')).toBe(title(typedEdit).replace(/\w+ added/, ''));
    // The audit says which surface each add came from.
    const [byForm, byLine] = await readAudit(world.store, { adminUsers: [] }, { actor: OPERATOR });
    expect([byForm?.via, byLine?.via]).toEqual(['form', 'typed']);
  });

  it('a refused submit answers privately in the typed sentence, with a button that reopens the form filled in', async () => {
    const typedToken = token();
    const when = { name: 'when', type: 3, value: 'every blue moon' };
    const command = { name: 'command', type: 3, value: '/weather Oslo' };
    fake.dispatch(
      'INTERACTION_CREATE',
      slashCommand({ ...ADD, token: typedToken, options: [when, command] }),
    );
    const typed = await fake.waitFor((c) => c.token === typedToken && c.kind === 'edit', 10_000);

    const submitToken = token();
    const values = { when: 'every blue moon', command: '/weather Oslo', to: '', tz: '', more: 'only:new' };
    fake.dispatch(
      'INTERACTION_CREATE',
      modalSubmit({ customId: modal.custom_id, token: submitToken, values }),
    );
    const refusal = await fake.waitFor((c) => c.token === submitToken && c.kind === 'followup', 10_000);
    expect(refusal.json?.flags).toBe(64);
    expect(withoutRef(refusal.json?.content)).toBe(withoutRef(typed.json?.content));
    // The public loading message is settled and deleted: nothing of the refusal is public.
    await fake.waitFor((c) => c.token === submitToken && c.kind === 'delete', 10_000);
    const [row] = refusal.json?.components as { components: { label: string; custom_id: string }[] }[];
    const button = row!.components.at(-1)!;
    expect(button.label).toBe('Edit and send again');
    expect(button.custom_id.length).toBeLessThanOrEqual(100);

    const reopened = await gateway(
      buttonClick({ customId: button.custom_id, token: token(), messageFlags: 64 }),
    );
    expect(reopened.json?.type).toBe(9);
    const inputs = (reopened.json!.data as ModalJson).components.map((r) => r.components[0]!);
    expect(Object.fromEntries(inputs.map((i) => [i.custom_id, i.value]))).toEqual({
      when: 'every blue moon',
      command: '/weather Oslo',
      to: undefined,
      tz: undefined,
      more: 'only:new',
    });
    expect(fake.contract.counts.invalid).toBe(0);
  });

  it('refuses whoever may not manage schedules before any form opens, in one sentence', async () => {
    const packet = slashCommand({ ...ADD, token: token() });
    const stranger = { ...packet.member, user: { ...packet.member.user, id: '80351110224678999' } };
    const callback = await gateway({ ...packet, member: stranger });
    expect(callback.json?.type).toBe(4);
    expect(String((callback.json?.data as { content: string }).content)).toMatch(/SCHEDULE_ALLOWED_USERS/);
  });
});

describe('/schedule add’s form in Discord HTTP mode, signed raw interactions', () => {
  it('answers the command with the modal in the HTTP response, and its submit adds the schedule', async () => {
    const before = (await world.store.listSchedules()).length;
    const body = JSON.stringify(slashCommand({ ...ADD, token: token() }));
    const opened = await post(http.url, body, signedHeaders(keys, body), 10_000);
    expect(opened.status).toBe(200);
    const answer = opened.json as { type: number; data: ModalJson };
    expect(answer.type).toBe(9);

    const submitToken = token();
    const values = { when: 'hourly', command: '/weather Oslo', to: '', tz: '', more: '' };
    const submit = JSON.stringify(
      modalSubmit({ customId: answer.data.custom_id, token: submitToken, values }),
    );
    const deferred = await post(http.url, submit, signedHeaders(keys, submit), 10_000);
    expect(deferred.json).toEqual({ type: 5, data: {} });
    const edit = await fake.waitFor((c) => c.token === submitToken && c.kind === 'edit', 10_000);
    expect(edit.path).toBe(`/api/v10/webhooks/${APP_ID}/${submitToken}/messages/%40original`);
    const records = await world.store.listSchedules();
    expect(records.length).toBe(before + 1);
    expect(records.at(-1)).toMatchObject({ when: 'hourly', command: '/weather Oslo', timezone: 'UTC' });
  });
});
