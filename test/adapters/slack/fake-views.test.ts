// The fake Slack refuses what Slack refuses of views (fake-slack.ts, viewProblem, each rule with its
// page): a modal over 100 blocks or with a title over 24 characters, a trigger_id used twice, a Home
// tab over 100 blocks or for no user. Each bad request is sent and seen refused, as Slack answers:
// HTTP 200, `ok: false`, invalid_arguments or exchanged_trigger_id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_TOKEN, startSlackFake, type SlackFake } from './fake-slack.ts';

let slack: SlackFake;
beforeAll(async () => {
  slack = await startSlackFake();
});
afterAll(() => slack.server.close());

async function call(method: string, form: Record<string, string>) {
  const res = await fetch(`${slack.server.url}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${BOT_TOKEN}` },
    body: new URLSearchParams(form).toString(),
  });
  return (await res.json()) as { ok: boolean; error?: string };
}

const section = (i: number) => ({
  type: 'section',
  block_id: `b${i}`,
  text: { type: 'mrkdwn', text: `${i}` },
});
const input = {
  type: 'input',
  block_id: 'when',
  label: { type: 'plain_text', text: 'When' },
  element: { type: 'plain_text_input', action_id: 'when', max_length: 200 },
};
const modal = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'modal',
    title: { type: 'plain_text', text: 'New schedule' },
    submit: { type: 'plain_text', text: 'Submit' },
    blocks: [input],
    ...extra,
  });
let n = 0;
const trigger = () => `70000000${++n}.1.abc`;

describe('the fake Slack’s rules for views', () => {
  it('opens a modal once per trigger_id', async () => {
    const id = trigger();
    expect(await call('views.open', { trigger_id: id, view: modal() })).toMatchObject({ ok: true });
    expect(await call('views.open', { trigger_id: id, view: modal() })).toEqual({
      ok: false,
      error: 'exchanged_trigger_id',
    });
  });

  it('refuses a modal over 100 blocks, a title over 24, a placeholder over 150, input blocks without submit', async () => {
    const bad = [
      modal({ blocks: Array.from({ length: 101 }, (_, i) => section(i)) }),
      modal({ title: { type: 'plain_text', text: 't'.repeat(25) } }),
      modal({
        blocks: [
          {
            ...input,
            element: { ...input.element, placeholder: { type: 'plain_text', text: 'p'.repeat(151) } },
          },
        ],
      }),
      modal({ submit: undefined }),
      modal({ private_metadata: 'm'.repeat(3001) }),
    ];
    for (const view of bad) {
      expect(await call('views.open', { trigger_id: trigger(), view })).toMatchObject({
        ok: false,
        error: 'invalid_arguments',
      });
    }
  });

  it('publishes a Home tab for a user, and refuses one over 100 blocks, for no user, not home or not JSON', async () => {
    const home = (count: number) =>
      JSON.stringify({ type: 'home', blocks: Array.from({ length: count }, (_, i) => section(i)) });
    expect(await call('views.publish', { user_id: 'U0ALICE', view: home(100) })).toMatchObject({ ok: true });
    expect(await call('views.publish', { user_id: 'U0ALICE', view: home(101) })).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
    });
    // No user, a modal, a view that is not JSON, no view at all: each refused as Slack refuses it.
    const refused: Record<string, string>[] = [
      { view: home(1) },
      { user_id: 'U0ALICE', view: JSON.stringify({ type: 'modal', blocks: [] }) },
      { user_id: 'U0ALICE', view: '{"type":"home","blocks":[' },
      { user_id: 'U0ALICE' },
    ];
    for (const form of refused)
      expect(await call('views.publish', form)).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect(slack.views.filter((v) => v.method === 'views.publish')).toHaveLength(1);
  });
});
