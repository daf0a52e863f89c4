// The Slack App Home tab end to end, through the real Bolt app in HTTP mode on the real dispatcher
// and schedule service, sent signed requests as Slack sends them: app_home_opened publishes "My
// schedules" (views.publish, a view of type home the fake checks as Slack does); each button acts
// through the same command as typed (Run now posts, Pause, Resume, Remove after its confirm
// dialog), its sentence shown on the Home published again with the new state; a click on the
// other app instance, sharing the store, acts alike; someone else's schedule is refused in one
// sentence; a schedule admin sees the workspace's schedules; New schedule opens the form; the Home
// and its buttons are in the reader's language (the Slack locale, else /settings). On the memory,
// SQLite and Redis stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeChannelClients, createChannelClients, type ChannelClients } from '../../src/destinations.ts';
import type { Actor } from '../../src/core/actor.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import { readAudit } from '../../src/schedule/audit.ts';
import { newScheduleId } from '../../src/schedule/schedules.ts';
import { createMemoryStore, createSqliteStore, type Store } from '../../src/store/index.ts';
import { createRedisStore } from '../../src/store/redis-store.ts';
import { SLACK_BODY_MAX } from '../../adapters/slack/endpoint.ts';
import {
  viewSubmissionBody,
  BOT_TOKEN,
  postSigned,
  startSlackFake,
  triggerId,
  waitFor,
  type SlackFake,
} from '../adapters/slack/fakes.ts';
import { fakeSlackConfig, serveSlack, type ServedSlack } from '../adapters/slack/fake-config.ts';
import { REDIS_URL } from '../support/redis.ts';
import { storeScratch } from '../support/scratch.ts';
import { replica, SILENT_LOG, startWorld, type World } from '../schedule/world.ts';

const scratch = storeScratch('herald-home-');
const now = () => new Date('2026-03-27T12:00:00Z');
const GENERAL: ChatChannel = { platform: 'slack', id: 'C0GENERAL', name: 'general', teamId: 'T0HERALD' };
const person = (id: string, name: string): Actor => ({ platform: 'slack', id, displayName: name, roles: [] });
const ALICE = person('U0ALICE', 'alice');
const BOB = person('U0BOB', 'bob');
const ADMIN = person('U0ADMIN', 'ada');
// The fake's users.info gives her the locale fr-FR.
const AMELIE = person('U0AMELIE', 'amelie');

interface Button {
  action_id: string;
  value: string;
  text: { text: string };
  confirm?: {
    title: { text: string };
    text: { text: string };
    confirm: { text: string };
    deny: { text: string };
  };
}
type View = Record<string, unknown> & {
  blocks: { type: string; text?: { text: string }; elements?: Button[] }[];
};

/** An app_home_opened event as Slack posts it (JSON, signed), for `user`'s Home tab. */
function homeOpened(user: Actor): string {
  return JSON.stringify({
    token: 'legacy-verification-token',
    team_id: 'T0HERALD',
    api_app_id: 'A0HERALD',
    event: {
      type: 'app_home_opened',
      user: user.id,
      channel: `D${user.id.slice(1)}`,
      tab: 'home',
      event_ts: `${Date.now() / 1000}`,
    },
    type: 'event_callback',
    event_id: `Ev${triggerId().slice(-12).toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
  });
}

/** A block_actions payload for a click on `button` of the Home `view`, by `user`. */
function homeClick(view: View, button: Button, user: Actor): string {
  const payload = {
    type: 'block_actions',
    user: { id: user.id, username: user.displayName, name: user.displayName, team_id: 'T0HERALD' },
    api_app_id: 'A0HERALD',
    token: 'legacy-verification-token',
    container: { type: 'view', view_id: view.id },
    trigger_id: triggerId(),
    team: { id: 'T0HERALD', domain: 'herald-test' },
    enterprise: null,
    is_enterprise_install: false,
    view: {
      ...view,
      team_id: 'T0HERALD',
      app_id: 'A0HERALD',
      hash: '1714560000.abcdef12',
      state: { values: {} },
    },
    actions: [
      {
        action_id: button.action_id,
        block_id: 'b0Xy',
        text: { type: 'plain_text', text: button.text.text, emoji: true },
        value: button.value,
        type: 'button',
        action_ts: '1714560005.123456',
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

const buttonsOf = (view: View) =>
  view.blocks.flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []));
const textOf = (view: View) => view.blocks.map((b) => b.text?.text ?? '').join('\n');
/** What the last click did: the section under the Home's header. */
const noticeOf = (view: View) => view.blocks[1]?.text?.text ?? '';

/** Each backend: two handles on one store, as two replicas hold them. */
const BACKENDS: { name: string; open: () => Promise<[Store, Store]> }[] = [
  {
    name: 'memory',
    open: () => {
      const store = createMemoryStore({ now: () => now().getTime() });
      return Promise.resolve([store, store]);
    },
  },
  {
    name: 'SQLite',
    open: () => {
      const file = `${scratch.dir}/home.db`;
      return Promise.resolve([createSqliteStore(file), createSqliteStore(file)]);
    },
  },
  {
    name: 'Redis',
    open: async () => {
      const open = () => createRedisStore(REDIS_URL, { keyPrefix: scratch.runPrefix });
      return [await open(), await open()];
    },
  },
];

describe.each(BACKENDS)('the Slack Home tab, two app instances sharing the $name store', ({ open }) => {
  let fake: SlackFake;
  let channels: ChannelClients;
  let worlds: World[] = [];
  let apps: ServedSlack[] = [];

  beforeAll(async () => {
    fake = await startSlackFake();
    // Installed from today's manifest, which asks for im:write (the form's to:me).
    fake.scopes.add('im:write');
    channels = createChannelClients({ slack: { botToken: BOT_TOKEN, apiUrl: `${fake.server.url}/api` } });
    const stores = await open();
    worlds = await Promise.all(
      stores.map((store, i) =>
        startWorld({
          now,
          store,
          channels,
          settings: { adminUsers: [ADMIN.id] },
          allow: { users: [ALICE.id, BOB.id, ADMIN.id, AMELIE.id], roles: [] },
          runNow: (record, w) => replica(w, w.store, { now, owner: `replica-${i}`, channels }).runNow(record),
        }),
      ),
    );
    apps = await Promise.all(
      worlds.map(async (w, i) => {
        const served = await serveSlack({
          config: fakeSlackConfig(fake),
          log: SILENT_LOG,
          claims: stores[i]!,
        });
        await served.adapter.start(w.registry, w.dispatcher);
        return served;
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await closeChannelClients(channels);
    // One memory store is both worlds' store: closed once.
    await Promise.all(worlds.map((w) => w.close()));
    await fake.server.close();
  });

  /** Sends `body` to app `i` and resolves with the Home it publishes for `user` next. */
  async function published(i: number, body: string, user: Actor, json = false): Promise<View> {
    const before = fake.views.length;
    const headers = json ? { headers: { 'content-type': 'application/json' } } : {};
    expect((await postSigned(apps[i]!.url, body, headers)).status).toBe(200);
    const taken = await waitFor(
      () => fake.views.slice(before).find((v) => v.method === 'views.publish' && v.user === user.id),
      10_000,
    );
    return { id: `V0HOME${fake.views.indexOf(taken) + 1}`, ...taken.view } as unknown as View;
  }
  const openHome = (user: Actor, i = 0) => published(i, homeOpened(user), user, true);
  const click = (view: View, label: string, user: Actor, i = 1) =>
    published(
      i,
      homeClick(
        view,
        buttonsOf(view).find((b) => b.text.text === label)!,
        user,
      ),
      user,
    );

  it('publishes My schedules: each of the user’s own with next run, last outcome, state and its buttons', async () => {
    const [w] = worlds;
    await w!.type('/schedule add "every weekday at 07:30" /weather Oslo', ALICE, GENERAL);
    await w!.type('/schedule add hourly /voices', ALICE, GENERAL);
    await w!.type('/schedule add daily /weather Bergen', BOB, GENERAL);
    const view = await openHome(ALICE);
    expect(view.type).toBe('home');
    expect(view.blocks[0]).toMatchObject({ type: 'header', text: { text: 'My schedules' } });
    const text = textOf(view);
    expect(text).toContain('2 schedules you added.');
    expect(text).not.toContain('/weather Bergen');
    expect(text).toMatch(/Next: <!date\^\d+\^\{date_short_pretty\} \{time\}\|[^>]+>/);
    expect(text).toContain('State: active');
    expect(text).toContain('Last: not run yet');
    const labels = buttonsOf(view).map((b) => b.text.text);
    expect(labels).toEqual(['New schedule', 'Run now', 'Pause', 'Remove', 'Run now', 'Pause', 'Remove']);
    const remove = buttonsOf(view).find((b) => b.text.text === 'Remove')!;
    expect(remove.confirm).toMatchObject({ title: { text: 'Remove' }, confirm: { text: 'Remove' } });
    expect(remove.confirm!.text.text).toMatch(/^Remove schedule \w+ \(.+\)\? It will not post again\.$/);
    expect(new Set(buttonsOf(view).map((b) => b.action_id)).size).toBe(labels.length);
  });

  it('Pause and Resume, clicked on the other instance, act and publish the Home again with the new state', async () => {
    const view = await openHome(ALICE);
    const [first] = (await worlds[0]!.store.listSchedules()).filter((s) => s.creator.id === ALICE.id);
    const paused = await click(view, 'Pause', ALICE);
    expect((await worlds[0]!.store.getSchedule(first!.id))?.paused).toBe(true);
    expect(textOf(paused)).toContain(
      `Schedule ${first!.id} is paused; /schedule resume ${first!.id} starts it again.`,
    );
    expect(textOf(paused)).toContain('State: paused');
    expect(buttonsOf(paused).map((b) => b.text.text)).toContain('Resume');
    const resumed = await click(paused, 'Resume', ALICE, 0);
    expect((await worlds[0]!.store.getSchedule(first!.id))?.paused).toBe(false);
    expect(noticeOf(resumed)).toMatch(new RegExp(`^Schedule ${first!.id} resumed; next run <!date\\^`));
    const audit = await readAudit(
      worlds[0]!.store,
      worlds[0]!.settings,
      { actor: ADMIN, channel: GENERAL },
      first!.id,
    );
    expect(audit.slice(0, 2).map((e) => [e.action, e.via, e.by.id])).toEqual([
      ['resume', 'home', ALICE.id],
      ['pause', 'home', ALICE.id],
    ]);
  });

  it('Run now posts into the schedule’s channel and says so on the Home', async () => {
    const view = await openHome(ALICE);
    const posts = fake.calls('chat.postMessage').length;
    const ran = await click(view, 'Run now', ALICE);
    const post = await waitFor(() => fake.calls('chat.postMessage')[posts], 10_000);
    expect(post.get('channel')).toBe('C0GENERAL');
    expect(noticeOf(ran)).toMatch(/^Schedule \w+ (posted|ran)/);
  });

  it('someone else’s schedule is refused in one sentence, and nothing changes', async () => {
    const view = await openHome(ALICE);
    const count = (await worlds[0]!.store.listSchedules()).length;
    const remove = buttonsOf(view).find((b) => b.text.text === 'Remove')!;
    const refused = await published(1, homeClick(view, remove, BOB), BOB);
    expect(noticeOf(refused)).toMatch(
      /^Schedule \w+ was added by alice, so only they, the operator or a schedule admin .* may remove it( \(ref [0-9a-f]{8}\))?\.$/,
    );
    expect((await worlds[0]!.store.listSchedules()).length).toBe(count);
  });

  it('a schedule admin sees every schedule of the workspace', async () => {
    const view = await openHome(ADMIN);
    expect(view.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Schedules in this workspace' } });
    const text = textOf(view);
    expect(text).toContain('3 schedules in this workspace');
    expect(text).toContain('/weather Bergen');
    expect(text).toContain('/voices');
  });

  it('Remove, once confirmed, removes the schedule and the Home no longer lists it', async () => {
    const view = await openHome(ALICE);
    const before = (await worlds[0]!.store.listSchedules()).filter((s) => s.creator.id === ALICE.id);
    const removed = await click(view, 'Remove', ALICE);
    const after = (await worlds[0]!.store.listSchedules()).filter((s) => s.creator.id === ALICE.id);
    expect(after).toHaveLength(before.length - 1);
    const gone = before.find((s) => !after.some((a) => a.id === s.id))!;
    expect(noticeOf(removed)).toBe(`Schedule ${gone.id} (${gone.words}, ${gone.command}) removed.`);
    expect(textOf(removed)).toContain('1 schedule you added.');
    expect(buttonsOf(removed).filter((b) => b.text.text === 'Remove')).toHaveLength(1);
  });

  it('New schedule opens the form with the click’s trigger_id; its submit adds and shows on the Home', async () => {
    const view = await openHome(ALICE);
    const before = fake.views.length;
    const button = buttonsOf(view).find((b) => b.text.text === 'New schedule')!;
    expect((await postSigned(apps[1]!.url, homeClick(view, button, ALICE))).status).toBe(200);
    const opened = await waitFor(
      () => fake.views.slice(before).find((v) => v.method === 'views.open'),
      10_000,
    );
    expect(opened.view).toMatchObject({ type: 'modal', callback_id: 'herald:form:schedule add' });
    expect(JSON.parse(String(opened.view.private_metadata))).toMatchObject({
      id: 'D0ALICE',
      teamId: 'T0HERALD',
    });
    // Its destination filled in as me: a direct message from herald, which the Home lists.
    const to = (opened.view.blocks as { block_id: string; element: { initial_value?: string } }[]).find(
      (b) => b.block_id === 'to',
    );
    expect(to?.element.initial_value).toBe('me');
    const count = (await worlds[0]!.store.listSchedules()).length;
    const values = { when: 'every monday at 09:00', command: '/weather Oslo', to: 'me' };
    // Submitted (the form closes), the Home is published again with what it added.
    const home = await published(0, viewSubmissionBody(opened.view, values), ALICE);
    const all = await worlds[0]!.store.listSchedules();
    expect(all).toHaveLength(count + 1);
    const added = all.find((r) => r.destination === 'channel:slack:D0ALICE');
    expect(added).toMatchObject({ command: '/weather Oslo', creator: { id: ALICE.id } });
    expect(textOf(home)).toContain(`*${added!.id} · every Monday at 09:00*`);
  });

  it('a full Home’s click stays within the body Slack’s endpoint takes', async () => {
    await worlds[0]!.type('/schedule add hourly /weather Trondheim', ALICE, GENERAL);
    const [one] = await worlds[0]!.store.listSchedules();
    for (let i = 0; i < 35; i++) {
      const copy = { ...one!, id: newScheduleId(), createdAt: one!.createdAt + i + 1 };
      expect(await worlds[0]!.store.addSchedule(copy, 1000)).toBe('added');
    }
    const view = await openHome(ADMIN);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const count = (await worlds[0]!.store.listSchedules()).length;
    expect(JSON.stringify(view.blocks.at(-1))).toContain(
      `${count - 30} more not shown here; /schedule list shows them all.`,
    );
    const body = homeClick(
      view,
      buttonsOf(view).find((b) => b.text.text === 'Pause')!,
      ADMIN,
    );
    expect(body.length).toBeLessThan(SLACK_BODY_MAX);
  });

  it('is drawn in the reader’s language: French from her Slack locale, German once /settings says so', async () => {
    fake.scopes.add('users:read');
    const added = await worlds[0]!.type('/schedule add daily /weather Lyon to:me', AMELIE, GENERAL);
    expect(added.text).toMatch(/^Schedule \w+ added/);
    const french = await openHome(AMELIE);
    expect(french.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Mes planifications' } });
    expect(textOf(french)).toContain('Vous avez ajouté 1 planification.');
    expect(textOf(french)).toContain('État : active');
    expect(buttonsOf(french).map((b) => b.text.text)).toEqual([
      'Nouvelle planification',
      'Exécuter maintenant',
      'Suspendre',
      'Supprimer',
    ]);
    const remove = buttonsOf(french).find((b) => b.text.text === 'Supprimer')!;
    expect(remove.confirm).toMatchObject({ confirm: { text: 'Supprimer' }, deny: { text: 'Annuler' } });
    expect(remove.confirm!.text.text).toMatch(
      /^Supprimer la planification \w+ \(.+\) \? Elle ne publiera plus rien\.$/,
    );
    const paused = await click(french, 'Suspendre', AMELIE);
    expect(textOf(paused)).toContain('État : suspendue');
    expect(buttonsOf(paused).map((b) => b.text.text)).toContain('Reprendre');

    await worlds[0]!.type('/settings language:de', AMELIE, GENERAL);
    const german = await openHome(AMELIE);
    expect(german.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Meine Zeitpläne' } });
    expect(textOf(german)).toContain('Du hast 1 Zeitplan angelegt.');
    expect(textOf(german)).toContain('Status: pausiert');
    expect(buttonsOf(german).map((b) => b.text.text)).toEqual([
      'Neuer Zeitplan',
      'Jetzt ausführen',
      'Fortsetzen',
      'Entfernen',
    ]);
    // A button whose value cannot be read: the adapter's own sentence, in the Home's language.
    const broken = { ...buttonsOf(german)[1]!, value: 'not json' };
    const again = await published(1, homeClick(german, broken, AMELIE), AMELIE);
    expect(noticeOf(again)).toBe('Diese Schaltfläche funktioniert nicht mehr; öffne den Home-Tab erneut.');
    expect(again.blocks[0]).toMatchObject({ text: { text: 'Meine Zeitpläne' } });
  });
});
