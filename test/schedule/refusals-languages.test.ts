// /schedule's and /settings' refusals in German and French: `when` (its words stay English), the
// destination, to:me, posting in a channel typed in, skip:, ping:, a skip, a watch, and /settings'
// tz: and scope:; through the real dispatcher and store, and destinationFor on each platform.
import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/actor.ts';
import type { ChatChannel } from '../../src/core/channel.ts';
import { userMessageFor } from '../../src/errors.ts';
import { translatorFor } from '../../src/i18n/translate.ts';
import { destinationFor } from '../../src/schedule/add-destination.ts';
import type { Reply } from '../../src/core/reply.ts';
import { MANAGER, startWorld, type World } from './world.ts';

let world: World | undefined;
afterEach(() => world?.close());

/** A refusal's sentence without its reference. */
const said = (reply: Reply) => reply.text.replace(/ \((?:Ref\.|réf\.|ref) [0-9a-f]+\)/, '');

async function worldIn(language: 'de' | 'fr'): Promise<World> {
  world = await startWorld();
  await world.type(`/settings language:${language}`, MANAGER);
  return world;
}

describe('/schedule refuses in German', () => {
  it('explains a `when` it cannot take, the words of `when` in English', async () => {
    const w = await worldIn('de');
    expect(said(await w.type('/schedule add "sometimes" /weather Oslo', MANAGER))).toBe(
      'Ich kann „sometimes“ nicht als Zeitplan lesen; schreibe es etwa als "every weekday at 07:30", "every 2 hours", "daily at 18:00" oder als Cron-Ausdruck wie "0 8 * * 1-5".',
    );
    expect(said(await w.type('/schedule add "every 90 minutes" /weather Oslo', MANAGER))).toBe(
      '„every 90 minutes“ liegt außerhalb des Bereichs; nimm 1 bis 59.',
    );
    expect(said(await w.type('/schedule add "every 5 minutes" /weather Oslo', MANAGER))).toBe(
      '„every 5 minutes“ läuft alle 5 Minuten, öfter als das Minimum von 15 Minuten (SCHEDULE_MIN_INTERVAL_MINUTES).',
    );
    expect(said(await w.type('/schedule add "daily at 25:00" /weather Oslo', MANAGER))).toBe(
      '„25:00“ ist keine Uhrzeit; schreibe sie als 07:30 oder 7:30pm.',
    );
    expect(said(await w.type('/schedule add "daily at 07:00" /weather Oslo tz:Mars/Base', MANAGER))).toBe(
      '„Mars/Base“ ist keine Zeitzone, die ich kenne; nimm einen IANA-Namen wie Europe/Berlin oder America/New_York.',
    );
  });

  it('refuses a destination, to:me on the console, skip:, ping:, a repeated option and a watch', async () => {
    const w = await worldIn('de');
    expect(said(await w.type('/schedule add "daily at 07:00" /weather Oslo to:nowhere', MANAGER))).toBe(
      'Es gibt kein Ziel „nowhere“; eingerichtet sind default, ops.',
    );
    expect(said(await w.type('/schedule add "daily at 07:00" /weather Oslo to:me', MANAGER))).toBe(
      'to:me ist eine Direktnachricht von herald auf Discord oder Slack; lege den Zeitplan dort an.',
    );
    expect(said(await w.type('/schedule add "daily at 07:00" /weather Oslo skip:weekends', MANAGER))).toBe(
      'skip muss holidays: und ein Ländercode sein, mit Region, wo die Feiertage abweichen: holidays:de oder holidays:de-by.',
    );
    expect(said(await w.type('/schedule add "daily at 07:00" /weather Oslo ping:everyone', MANAGER))).toMatch(
      /^ping: nimmt Rollen oder Personen als Erwähnungen/,
    );
    expect(said(await w.type('/schedule add "daily at 07:00" /weather Oslo to:ops to:ops', MANAGER))).toBe(
      'Die Option to ist doppelt angegeben.',
    );
    expect(said(await w.type('/schedule add only:new "daily at 07:00" /weather Oslo', MANAGER))).toMatch(
      /^\/weather kann keine Beobachtung sein \(only:new\): nur die Befehle .+ können ausschließlich Neues posten\.$/,
    );
  });

  it('refuses to skip a paused schedule, and to undo a skip that is not there', async () => {
    const w = await worldIn('de');
    await w.type('/schedule add "daily at 07:00" /weather Oslo', MANAGER);
    const [record] = await w.store.listSchedules();
    const id = record!.id;
    expect(said(await w.type(`/schedule unskip ${id}`, MANAGER))).toBe(
      // MANAGER is on Discord: the command is named as its German command list shows it.
      `Zeitplan ${id} lässt keinen Lauf aus; /zeitplan überspringen ${id} lässt den nächsten aus.`,
    );
    await w.type(`/schedule pause ${id}`, MANAGER);
    expect(said(await w.type(`/schedule skip ${id}`, MANAGER))).toBe(
      `Zeitplan ${id} ist pausiert und hat daher keinen nächsten Lauf, der sich auslassen oder wiederherstellen ließe.`,
    );
  });
});

describe('/schedule and /settings refuse in French', () => {
  it('refuses `when`, an unknown option before the command, and its own option after it', async () => {
    const w = await worldIn('fr');
    expect(said(await w.type('/schedule add "" /weather Oslo', MANAGER))).toBe('when ne doit pas être vide.');
    expect(said(await w.type('/schedule add "0 8 * * 9" /weather Oslo', MANAGER))).toMatch(
      /^« 0 8 \* \* 9 » n’est pas une expression cron valide \(.+\) ; écrivez cinq champs : minute heure jour mois jour-de-semaine\.$/,
    );
    expect(said(await w.type('/schedule add "sometimes" /weather Oslo', MANAGER))).toBe(
      'Je ne sais pas lire « sometimes » comme planification ; écrivez-la par exemple "every weekday at 07:30", "every 2 hours", "daily at 18:00" ou sous forme d’expression cron comme "0 8 * * 1-5".',
    );
    // Before the command line, the shared grammar's sentence.
    expect(said(await w.type('/schedule add colour:red "daily at 07:00" /weather Oslo', MANAGER))).toBe(
      '/schedule add n’a pas d’option « colour » ; ses options sont when, command, to, tz, only, alert, preview, mode, thread, skip, ping (mettez entre guillemets les mots contenant « : »).',
    );
    expect(said(await w.type('/schedule add daily /settings tz:Asia/Tokyo', MANAGER))).toBe(
      'tz: après la ligne de commande est aussi une option propre de la commande, qu’une planification ne peut distinguer de la sienne ; placez le tz: de /schedule avant la ligne de commande, ou dans son propre champ.',
    );
  });

  it('refuses a time zone and a scope on /settings', async () => {
    const w = await worldIn('fr');
    expect(said(await w.type('/settings tz:Mars/Base', MANAGER))).toBe(
      'tz doit être un fuseau horaire IANA comme Europe/Berlin ou America/New_York, ou default.',
    );
    expect(said(await w.type('/settings scope:everyone', MANAGER))).toBe('scope doit être me ou channel.');
  });
});

describe('posting in the channel typed in, on each platform', () => {
  const SLACK_CHANNEL: ChatChannel = { platform: 'slack', id: 'C0123', teamId: 'T0001' };
  const DISCORD_CHANNEL: ChatChannel = {
    platform: 'discord',
    id: '1187421520894746112',
    guildId: '1187421520894746000',
    memberPermissions: '0',
  };
  const SLACK_USER: Actor = { platform: 'slack', id: 'U0123', displayName: 'Al', roles: [] };

  async function refusalIn(language: 'de' | 'fr', run: () => Promise<unknown>): Promise<string> {
    const err = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    return userMessageFor(err, translatorFor(language), language);
  }

  it('says what to grant herald, and that a member who may not post there is refused', async () => {
    const slack = { destinations: ['default'], channelChecks: { slack: async () => 'slackInvite' as const } };
    expect(await refusalIn('de', () => destinationFor(slack, { channel: SLACK_CHANNEL }, SLACK_USER))).toBe(
      'Um hier zu posten, lade herald in diesen Kanal ein (/invite @herald); es braucht chat:write und files:write.',
    );
    const discord = {
      destinations: ['default'],
      channelChecks: { discord: async () => 'discordPermissions' as const },
    };
    expect(
      await refusalIn('fr', () => destinationFor(discord, { channel: DISCORD_CHANNEL }, MANAGER)),
    ).toMatch(/^Pour publier ici, herald a besoin des permissions Voir le salon, Envoyer des messages/);
    const allowed = { destinations: ['default'], channelChecks: { discord: async () => undefined } };
    expect(
      await refusalIn('fr', () => destinationFor(allowed, { channel: DISCORD_CHANNEL }, MANAGER)),
    ).toMatch(
      /^Vous ne pouvez pas envoyer vous-même de messages dans ce salon \(Voir le salon et Envoyer des messages\)/,
    );
    const member = {
      destinations: ['default'],
      channelChecks: { slack: async () => undefined },
      channelAudiences: { slack: async () => ({ isPrivate: false, isMember: false }) },
    };
    expect(
      await refusalIn('de', () => destinationFor(member, { channel: SLACK_CHANNEL }, SLACK_USER)),
    ).toMatch(/^Du bist kein Mitglied dieses Kanals/);
  });

  it('refuses thread:yes to a direct message on Discord', async () => {
    const opts = {
      destinations: ['default'],
      directChannels: { discord: async () => '1187421520894746555' },
    };
    expect(await refusalIn('fr', () => destinationFor(opts, { to: 'me', thread: 'yes' }, MANAGER))).toBe(
      'Discord n’a pas de fils dans un message privé ; pour thread:yes, ajoutez la planification dans un salon de serveur.',
    );
  });
});
