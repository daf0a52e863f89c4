// /schedule in the reader's language (/settings language:), and a schedule's notices in its
// channel's, else its creator's: through the real dispatcher, store and runner.
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/core/reply.ts';
import { createPreferenceBook } from '../../src/core/preferences.ts';
import { renderDiscordWebhook } from '../../src/render/discord.ts';
import { route } from '../../src/sandbox/layout.ts';
import { createScheduleRunner } from '../../src/schedule/runner.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import {
  MANAGER,
  OPERATOR,
  ROLE_HOLDER,
  SILENT_LOG,
  STRANGER,
  startWorld,
  withSchedulesOf,
  type World,
} from './world.ts';

let world: World | undefined;

/** A refusal's sentence without its reference, which the world takes off only in English. */
const said = (reply: Reply) => reply.text.replace(/ \((?:Ref\.|réf\.) [0-9a-f]+\)/, '');
afterEach(() => world?.close());

describe('/schedule in German and French', () => {
  it('adds, lists, pauses and refuses in German, with German dates; the words of when stay English', async () => {
    world = await startWorld();
    await world.type('/settings language:de', MANAGER);
    const added = await world.type('/schedule add "every weekday at 07:30" /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    const id = record!.id;
    expect(added.text).toBe(
      `Zeitplan ${id} angelegt: every weekday (Monday to Friday) at 07:30 (UTC), /weather Oslo an default.`,
    );
    expect(added.embeds![0]!.fields!.map((f) => f.name)).toEqual(['Wann', 'Befehl', 'Ziel', 'Nächste Läufe']);
    // The next runs in German: "Mo., 30. März 2026, 07:30 UTC".
    expect(added.embeds![0]!.fields![3]!.value).toMatch(/^Mo\., 30\. März 2026, 07:30 UTC\n/);
    expect(added.actions!.map((a) => a.label)).toEqual(['Jetzt ausführen', 'Entfernen', 'Vorschau']);

    const list = await world.type('/schedule list', MANAGER);
    expect(list.text).toBe('1 Zeitplan (höchstens 50).');
    expect(list.embeds![0]!.title).toBe('Zeitpläne');
    expect(list.embeds![0]!.fields![0]!.value).toContain('Führt aus: /weather Oslo → default');
    expect(list.actions!.map((a) => a.label)).toEqual([
      `${id} jetzt ausführen`,
      `${id} pausieren`,
      `${id} entfernen`,
    ]);

    expect((await world.type(`/schedule pause ${id}`, MANAGER)).text).toBe(
      // MANAGER is on Discord: commands are named as its German command list shows them.
      `Zeitplan ${id} ist pausiert; /zeitplan fortsetzen ${id} startet ihn wieder.`,
    );
    expect(said(await world.type('/schedule remove zzzzzz', MANAGER))).toBe(
      'Es gibt keinen Zeitplan "zzzzzz"; /zeitplan liste zeigt alle.',
    );
  });

  it('refuses and reads the audit in French; English stays for whoever set none', async () => {
    world = await startWorld({ settings: { adminUsers: [] } });
    await world.type('/schedule add "every weekday at 07:30" /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    const other = ROLE_HOLDER;
    await world.type('/settings language:fr', other);
    // Another's schedule, from elsewhere, reads as unknown (visibility.ts), in French.
    expect(said(await world.type(`/schedule remove ${record!.id}`, other))).toBe(
      `Il n'existe pas de planification "${record!.id}" ; /planification liste les affiche toutes.`,
    );
    await world.type('/settings language:fr', OPERATOR);
    const audit = await world.type(`/schedule audit ${record!.id}`, OPERATOR);
    expect(audit.text).toBe(
      `La dernière modification de la planification ${record!.id}, la plus récente en premier.`,
    );
    expect(audit.embeds![0]!.description).toContain(`${MANAGER.displayName} a ajouté ${record!.id} (saisie)`);
    expect((await world.type('/schedule list', MANAGER)).text).toBe('1 schedule (at most 50).');
    await world.type('/settings language:fr', STRANGER);
    expect(said(await world.type(`/schedule pause ${record!.id}`, STRANGER))).toBe(
      `Vous n'êtes pas autorisé à gérer les planifications : demandez à un administrateur de vous ajouter (identifiant ${STRANGER.id}) à SCHEDULE_ALLOWED_USERS.`,
    );
  });
});

describe('a schedule’s notices in its creator’s language', () => {
  it('tells three failed slots in a row in German, through the destination', async () => {
    let nowMs = Date.parse('2026-03-27T12:00:00Z');
    const now = () => new Date(nowMs);
    world = await startWorld({ now, settings: { minIntervalMinutes: 1 } });
    await world.type('/settings language:de', MANAGER);
    await world.type('/schedule add "every 5 minutes" /weather Oslo', MANAGER);
    const [record] = await world.store.listSchedules();
    // The app's reading (jobs/schedule-engine.ts): the schedule's language as its posts have it.
    const book = createPreferenceBook(world.store, { timezone: 'UTC' });
    const w = world;
    const runner = createScheduleRunner({
      store: withSchedulesOf(w.store, createMemoryStore({ now: () => nowMs })),
      services: w.services,
      commands: () => w.dispatcher,
      toMessage: (reply) => renderDiscordWebhook(reply, { username: 'herald' }),
      log: SILENT_LOG,
      now,
      owner: 'only',
      catchupMinutes: 60,
      retryDelayMs: 30_000,
      delivery: { backoffMs: 1, retryBaseMs: 1_000, triesPerDrain: 1 },
      languageOf: async (r) => (await book.forSchedule(r)).language,
    });
    w.server.use(
      http.get(route('weather', '/weather'), () =>
        HttpResponse.json({ cod: 401, message: 'Invalid API key.' }, { status: 401 }),
      ),
    );
    for (const slot of [5, 10, 15]) {
      for (const minute of [0, 1, 2]) {
        nowMs = Date.parse(`2026-03-27T12:${String(slot + minute).padStart(2, '0')}:00.300Z`);
        await runner.tick();
      }
    }
    const notices = w.inbox.messages.filter((m) => m.content?.includes('in Folge fehlgeschlagen'));
    expect(notices.map((m) => m.content)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Zeitplan ${record!.id} \\(/weather Oslo → default\\) ist 3-mal in Folge fehlgeschlagen, zuletzt: `,
        ),
      ),
    ]);
    expect(w.inbox.messages.some((m) => m.content?.includes('failed 3 times in a row'))).toBe(false);
  });
});
