// /schedule add's form on Slack end to end: the real Bolt app in HTTP mode on the real dispatcher and
// schedule service, sent signed requests as Slack sends them. `/schedule add` with no text opens a
// modal view (views.open, with the command's trigger_id) built from the command's options; its
// submit (view_submission) adds the same record as the typed line and answers in the channel; a
// refused submit is answered in the form, beside its field (`response_action: errors`), in the typed
// line's sentence. The fake refuses what Slack refuses of a view (fake-slack.ts, viewProblem).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeChannelClients, createChannelClients, type ChannelClients } from '../../src/destinations.ts';
import { readAudit } from '../../src/schedule/audit.ts';
import type { ScheduleRecord } from '../../src/schedule/schedules.ts';
import {
  BOT_TOKEN,
  postSigned,
  slashBody,
  startSlackFake,
  viewSubmissionBody,
  waitFor,
  type SlackFake,
} from '../adapters/slack/fakes.ts';
import { startSlackHttp } from '../adapters/slack/fake-config.ts';
import { OPERATOR, SILENT_LOG, startWorld, type World } from '../schedule/world.ts';

const CHANNEL = 'C0GENERAL';
const USER = 'U0ALICE';

let fake: SlackFake;
let channels: ChannelClients;
let world: World;
let url: string;
let stop: () => Promise<void>;
let n = 0;

beforeAll(async () => {
  fake = await startSlackFake();
  channels = createChannelClients({ slack: { botToken: BOT_TOKEN, apiUrl: `${fake.server.url}/api` } });
  world = await startWorld({ channels, allow: { users: [USER], roles: [] } });
  ({ url, stop } = await startSlackHttp(fake, world.registry, world.dispatcher, SILENT_LOG));
});
afterAll(async () => {
  await stop();
  await closeChannelClients(channels);
  await world.close();
  await fake.server.close();
});

const withoutRef = (text: unknown) => String(text).replace(/ \(ref [0-9a-f]{8}\)/, '');

/** Types `/schedule <text>` in the channel; resolves with the first answer on its response_url. */
async function schedule(text: string): Promise<Record<string, unknown>> {
  const id = `form-${++n}`;
  expect((await postSigned(url, slashBody('/schedule', text, fake.responseUrl(id)))).status).toBe(200);
  const [answer] = await waitFor(
    () => (fake.responses(id).length > 0 ? fake.responses(id) : undefined),
    10_000,
  );
  return answer!;
}

/** Types `/schedule add` with no text; resolves with the modal views.open took. */
async function openForm(): Promise<Record<string, unknown>> {
  const before = fake.views.length;
  const trigger = `7000000000${++n}.7000000000002.0123456789abcdef0123456789abcdef`;
  const sent = await postSigned(url, slashBody('/schedule', 'add', fake.responseUrl(`open-${n}`), trigger));
  expect(sent.status).toBe(200);
  const opened = await waitFor(() => fake.views[before], 10_000);
  expect(opened).toMatchObject({ method: 'views.open', trigger });
  return opened.view;
}

async function lastAdded(): Promise<Partial<ScheduleRecord>> {
  const { id: _id, createdAt: _at, ...rest } = (await world.store.listSchedules()).at(-1)!;
  return rest;
}

describe('/schedule add with no text on Slack, through the real Bolt app', () => {
  it('opens a modal view of the command’s options with the command’s trigger_id', async () => {
    const view = await openForm();
    expect(view).toMatchObject({
      type: 'modal',
      callback_id: 'herald:form:schedule add',
      title: { text: 'New schedule' },
    });
    const blocks = view.blocks as {
      block_id: string;
      optional: boolean;
      element: { max_length: number; multiline: boolean };
    }[];
    expect(blocks.map((b) => [b.block_id, b.optional, b.element.max_length])).toEqual([
      ['when', false, 200],
      ['command', false, 1000],
      ['to', true, 32],
      ['tz', true, 64],
      ['more', true, 1000],
    ]);
    expect(JSON.parse(String(view.private_metadata))).toMatchObject({ id: CHANNEL, teamId: 'T0HERALD' });
  });

  it('its submit adds the same record as the typed line, and answers in the channel', async () => {
    await schedule('add tz:Europe/Berlin "every weekday at 07:30" /weather Oslo units:imperial');
    const typed = await lastAdded();
    const view = await openForm();
    const values = {
      when: 'every weekday at 07:30',
      command: '/weather Oslo units:imperial',
      tz: 'Europe/Berlin',
    };
    const posts = fake.calls('chat.postMessage').length;
    const submitted = await postSigned(url, viewSubmissionBody(view, values));
    // Accepted: the form closes (an empty acknowledgement).
    expect(submitted).toMatchObject({ status: 200, text: '' });
    expect(await lastAdded()).toEqual(typed);
    const post = await waitFor(() => fake.calls('chat.postMessage')[posts], 10_000);
    expect(post.get('channel')).toBe(CHANNEL);
    expect(post.get('text')).toMatch(
      /^Schedule \w+ added: every weekday \(Monday to Friday\) at 07:30 \(Europe\/Berlin\), \/weather Oslo units:imperial in this channel\.$/,
    );
  });

  it('records a submit in the audit as made from the form, and the typed line as typed', async () => {
    await schedule('add "every day at 06:45" /weather Oslo');
    const view = await openForm();
    await postSigned(
      url,
      viewSubmissionBody(view, { when: 'every day at 06:45', command: '/weather Bergen' }),
    );
    const [byForm, byLine] = await readAudit(world.store, { adminUsers: [] }, { actor: OPERATOR });
    expect([byForm, byLine].map((e) => [e?.action, e?.by.id, e?.via])).toEqual([
      ['add', USER, 'form'],
      ['add', USER, 'typed'],
    ]);
  });

  it('a refused submit is answered in the form, beside its field, in the typed line’s sentence', async () => {
    const typed = await schedule('add "every blue moon" /weather Oslo');
    const count = (await world.store.listSchedules()).length;
    const view = await openForm();
    const submitted = await postSigned(
      url,
      viewSubmissionBody(view, { when: 'every blue moon', command: '/weather Oslo' }),
    );
    expect(submitted.status).toBe(200);
    const ack = JSON.parse(submitted.text) as { response_action: string; errors: Record<string, string> };
    expect(ack.response_action).toBe('errors');
    expect(Object.keys(ack.errors)).toEqual(['when']);
    // The same sentence; a message's mrkdwn shows its asterisks as ∗ (src/render/slack-escape.ts).
    expect(withoutRef(ack.errors.when)).toBe(withoutRef(typed.text).replaceAll('∗', '*'));
    expect((await world.store.listSchedules()).length).toBe(count);

    const tooLong = await postSigned(
      url,
      viewSubmissionBody(view, { when: 'hourly', command: '/weather Oslo', tz: 'x'.repeat(65) }),
    );
    expect(Object.keys((JSON.parse(tooLong.text) as { errors: object }).errors)).toEqual(['tz']);
  });
});
