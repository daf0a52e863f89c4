// /settings end to end through the dispatcher, on the simulator: what it shows and where from, what
// it keeps, who may set a channel's values, each bad input one sentence; and what the values do:
// /weather's units and home place, a schedule's zone, a scheduled post's units.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatChannel } from '../../src/core/channel.ts';
import { MANAGER, OPERATOR, ROLE_HOLDER, STRANGER, startWorld, type World } from '../schedule/world.ts';

const HERE: ChatChannel = { platform: 'discord', id: '1200000000000000001', guildId: '1100000000000000001' };
const ADMIN = ROLE_HOLDER;

let world: World;
beforeEach(async () => {
  world = await startWorld({ settings: { adminRoles: [ADMIN.roles[0]!], timezone: 'Europe/London' } });
});
afterEach(() => world.close());

describe('/settings', () => {
  it('shows what applies and where each value comes from', async () => {
    await world.type('/settings tz:Asia/Tokyo home:Oslo', MANAGER);
    await world.type('/settings scope:channel units:imperial', ADMIN, HERE);
    const shown = await world.type('/settings', MANAGER, HERE);
    expect(shown.ephemeral).toBe(true);
    expect(shown.text.split('\n')).toEqual([
      'What applies to your commands here:',
      'Time zone: Asia/Tokyo (yours)',
      "Units: imperial (this channel's)",
      'Language: en-GB (the default)',
      'Home place: Oslo (yours)',
    ]);
    const elsewhere = await world.type('/settings', STRANGER);
    expect(elsewhere.text).toContain('Time zone: Europe/London (the default, SCHEDULE_TZ)');
    expect(elsewhere.text).toContain('Home place: none (set one with /settings home:Oslo)');
  });

  it('keeps a zone in its IANA spelling, and clears each value with default', async () => {
    const saved = await world.type('/settings tz:europe/berlin units:imperial language:de', MANAGER);
    // The language just set answers at once.
    expect(saved.text).toMatch(
      /^Für dich gespeichert: Zeitzone “Europe\/Berlin”, Einheiten “imperial”, Sprache “de”\./,
    );
    const cleared = await world.type('/settings tz:default units:default', MANAGER);
    expect(cleared.text).toMatch(/^Für dich gespeichert: Zeitzone gelöscht, Einheiten gelöscht\./);
    expect(cleared.text).toContain('Zeitzone: Europe/London (die Voreinstellung, SCHEDULE_TZ)');
    expect(cleared.text).toContain('Sprache: de (deine)');
    const english = await world.type('/settings language:default', MANAGER);
    expect(english.text).toMatch(/^Saved for you: language cleared\.\n/);
    expect(english.text).toContain('Language: en-GB (the default)');
  });

  it("answers a cleared language in the channel's language where that applies", async () => {
    await world.type('/settings scope:channel language:fr', ADMIN, HERE);
    await world.type('/settings language:de', MANAGER, HERE);
    const cleared = await world.type('/settings language:default', MANAGER, HERE);
    expect(cleared.text).toMatch(/^Enregistré pour vous : langue effacé\.\n/);
  });

  it('answers each bad input with one sentence, and keeps nothing', async () => {
    const cases: [string, string][] = [
      [
        '/settings tz:Mars/Olympus',
        'tz must be an IANA time zone such as Europe/Berlin or America/New_York, or default.',
      ],
      ['/settings units:kelvin', 'units must be one of metric, imperial, standard, default.'],
      ['/settings language:es', 'language must be one of en-GB, de, fr, default.'],
      ['/settings scope:everyone tz:UTC', 'scope must be me or channel.'],
    ];
    for (const [line, sentence] of cases) {
      const reply = await world.type(line, MANAGER);
      expect(reply.text, line).toBe(sentence);
    }
    expect((await world.type('/settings', MANAGER)).text).toContain('Time zone: Europe/London (the default');
  });

  it("lets only schedule admins and the operator set a channel's values", async () => {
    const refused = await world.type('/settings scope:channel tz:America/New_York', MANAGER, HERE);
    expect(refused.text).toBe(
      `Only a schedule admin (SCHEDULE_ADMIN_USERS or SCHEDULE_ADMIN_ROLES, user id ${MANAGER.id}) or the operator may change a channel's settings; /settings changes your own.`,
    );
    expect((await world.type('/settings scope:channel', MANAGER, HERE)).text).toContain('Time zone: not set');
    const set = await world.type('/settings scope:channel tz:America/New_York', ADMIN, HERE);
    expect(set.text).toMatch(/^Saved for this channel: time zone “America\/New_York”\./);
    const home = await world.type('/settings scope:channel home:Oslo', ADMIN, HERE);
    expect(home.text).toBe('A channel has no home place; set yours with /settings home:<place>.');
    // The operator names the channel from the console, where there is none.
    expect((await world.type('/settings scope:channel units:imperial')).text).toMatch(
      /^The console is in no channel/,
    );
    const named = await world.type(`/settings scope:channel:discord:${HERE.id} units:imperial`);
    expect(named.text).toContain(`Saved for the channel ${HERE.id}: units “imperial”.`);
    const byMember = await world.type(`/settings scope:channel:discord:${HERE.id} units:metric`, ADMIN, HERE);
    expect(byMember.text).toBe(
      'Only the operator names a channel; in the channel itself, type scope:channel.',
    );
    expect((await world.type('/settings', MANAGER, HERE)).text).toContain(
      "Time zone: America/New_York (this channel's)",
    );
  });
});

describe('what the settings change', () => {
  it('/weather and /forecast use the home place, and the typed city over it', async () => {
    const none = await world.type('/weather', MANAGER);
    expect(none.text).toBe(
      '/weather needs a place: type it (/weather Oslo), or set your home place once with /settings home:Oslo.',
    );
    await world.type('/settings home:Oslo units:imperial', MANAGER);
    const home = await world.type('/weather', MANAGER);
    expect(home.text).toMatch(/^Oslo, NO: .*°F/);
    expect((await world.type('/forecast', MANAGER)).text).toMatch(/^Oslo, NO, next \d days: .*°F/);
    const typed = await world.type('/weather Berlin units:metric', MANAGER);
    expect(typed.text).toMatch(/^Berlin, DE: .*°C/);
  });

  it("a typed command: the user's units over the channel's, the channel's over the default", async () => {
    await world.type('/settings scope:channel units:imperial', ADMIN, HERE);
    expect((await world.type('/weather Oslo', STRANGER, HERE)).text).toContain('°F');
    expect((await world.type('/weather Oslo', STRANGER)).text).toContain('°C');
    await world.type('/settings units:standard', STRANGER);
    expect((await world.type('/weather Oslo', STRANGER, HERE)).text).toContain(' K');
  });

  it("a schedule added without tz: fires in its creator's zone, else the channel's, else SCHEDULE_TZ", async () => {
    const add = async (actor = MANAGER, tz = '') => {
      const added = await world.type(
        `/schedule add "every day at 07:30" to:ops${tz} /weather Oslo`,
        actor,
        HERE,
      );
      expect(added.text).toMatch(/^Schedule \w+ added/);
      const records = await world.store.listSchedules();
      return records.at(-1)!;
    };
    expect((await add()).timezone).toBe('Europe/London');
    await world.type('/settings scope:channel tz:America/New_York', ADMIN, HERE);
    expect((await add()).timezone).toBe('America/New_York');
    await world.type('/settings tz:Asia/Tokyo', MANAGER);
    const creators = await add();
    expect(creators).toMatchObject({ timezone: 'Asia/Tokyo' });
    expect(creators.isZoneTyped).toBeUndefined();
    // Kept as added: a later change of the creator's zone does not move it.
    await world.type('/settings tz:Europe/Paris', MANAGER);
    expect((await world.store.getSchedule(creators.id))!.timezone).toBe('Asia/Tokyo');
    expect(await add(MANAGER, ' tz:Australia/Sydney')).toMatchObject({
      timezone: 'Australia/Sydney',
      isZoneTyped: true,
    });
  });

  it("the console writes times in the operator's zone: theirs, else SCHEDULE_TZ", async () => {
    const added = await world.type(
      '/schedule add tz:Europe/Berlin "every day at 07:30" to:ops /weather Oslo',
    );
    expect(added.text).toMatch(/^Schedule \w+ added/);
    const next = (reply: { embeds?: { fields?: { value: string }[] }[] }) =>
      /Next: (.+)/.exec(reply.embeds![0]!.fields![0]!.value)?.[1];
    expect(next(await world.type('/schedule list'))).toBe('Sat, 28 Mar 2026, 06:30 GMT');
    await world.type('/settings tz:Asia/Tokyo');
    expect(next(await world.type('/schedule list'))).toBe('Sat, 28 Mar 2026, 15:30 GMT+9');
  });

  it("a scheduled post: its own options, then its channel's, then its creator's; the creator's home", async () => {
    await world.type('/settings units:standard home:Oslo', MANAGER);
    await world.type('/settings scope:channel units:imperial', ADMIN, HERE);
    const run = (line: string, destination: string) =>
      world.dispatcher.run(line, MANAGER, new AbortController().signal, {
        schedule: { creator: MANAGER, destination, timezone: 'UTC' },
      });
    expect((await run('/weather', `channel:discord:${HERE.id}`)).text).toMatch(/^Oslo, NO: .*°F/);
    expect((await run('/weather', 'ops')).text).toMatch(/^Oslo, NO: .* K/);
    expect((await run('/weather Berlin units:metric', `channel:discord:${HERE.id}`)).text).toContain('°C');
    expect(OPERATOR.isOperator).toBe(true);
  });
});

describe('/settings in German and French', () => {
  it('shows what applies in German once German is set, and refuses in German', async () => {
    await world.type('/settings language:de tz:Europe/Berlin', MANAGER);
    const shown = await world.type('/settings', MANAGER, HERE);
    expect(shown.text.split('\n')).toEqual([
      'Was hier für deine Befehle gilt:',
      'Zeitzone: Europe/Berlin (deine)',
      'Einheiten: metric (die Voreinstellung)',
      'Sprache: de (deine)',
      'Heimatort: keine (lege eine fest mit /settings home:Oslo)',
    ]);
    expect(shown.embeds![0]!.title).toBe('Deine Einstellungen');
    expect((await world.type('/settings units:imperial', MANAGER)).text).toMatch(
      /^Für dich gespeichert: Einheiten “imperial”\.\n/,
    );
    const refused = await world.type('/settings scope:channel units:imperial', MANAGER, HERE);
    expect(refused.text).toMatch(
      new RegExp(
        `^Nur ein Zeitplan-Admin \\(SCHEDULE_ADMIN_USERS oder SCHEDULE_ADMIN_ROLES, Nutzer-ID ${MANAGER.id}\\)`,
      ),
    );
  });

  it("saves a channel's values in French", async () => {
    await world.type('/settings language:fr', ADMIN);
    const saved = await world.type('/settings scope:channel units:imperial', ADMIN, HERE);
    expect(saved.text.split('\n')).toEqual([
      'Enregistré pour ce salon : unités “imperial”.',
      'Fuseau horaire : non défini',
      'Unités : imperial',
      'Langue : non défini',
    ]);
  });
});
