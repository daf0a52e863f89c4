// /settings (commands/settings.ts, settings-format.ts). Option keys and stored values stay as typed.
import { defineMessages } from './define.ts';

export const settings = defineMessages(
  {
    labels: { timezone: 'Time zone', units: 'Units', language: 'Language', home: 'Home place' },
    /** A setting's name inside a sentence: "Saved for you: time zone …". */
    inLine: { timezone: 'time zone', units: 'units', language: 'language', home: 'home place' },
    sources: {
      typed: 'typed',
      user: 'yours',
      channel: "this channel's",
      schedule: "the schedule's",
      platform: 'your Discord or Slack language',
      default: 'the default',
    },
    none: 'none (set one with /settings {{option}}:Oslo)',
    line: '{{name}}: {{value}}',
    applies: 'What applies to your commands here:',
    title: 'Your settings',
    footer: 'Yours first, then this channel’s, then the default; an option you type wins over all.',
    channelSet: 'What {{name}} set:',
    notSet: 'not set',
    thisChannel: 'this channel',
    channel: 'the channel {{id}}',
    cleared: '{{setting}} cleared',
    savedForYou: 'Saved for you: {{changes}}.',
    savedFor: 'Saved for {{name}}: {{changes}}.',
    refuse: {
      operatorNames: 'Only the operator names a channel; in the channel itself, type scope:channel.',
      console:
        'The console is in no channel: name one, scope:channel:discord:<channel id> or scope:channel:slack:<channel id>.',
      noHome: 'A channel has no home place; set yours with /settings home:<place>.',
      admins:
        "Only a schedule admin (SCHEDULE_ADMIN_USERS or SCHEDULE_ADMIN_ROLES, user id {{user}}) or the operator may change a channel's settings; {{/settings}} changes your own.",
    },
  },
  {
    de: {
      labels: { timezone: 'Zeitzone', units: 'Einheiten', language: 'Sprache', home: 'Heimatort' },
      inLine: { timezone: 'Zeitzone', units: 'Einheiten', language: 'Sprache', home: 'Heimatort' },
      sources: {
        typed: 'getippt',
        user: 'deine',
        channel: 'die dieses Kanals',
        schedule: 'die des Zeitplans',
        platform: 'deine Discord- oder Slack-Sprache',
        default: 'die Voreinstellung',
      },
      none: 'keine (lege eine fest mit /settings {{option}}:Oslo)',
      line: '{{name}}: {{value}}',
      applies: 'Was hier für deine Befehle gilt:',
      title: 'Deine Einstellungen',
      footer:
        'Deine zuerst, dann die dieses Kanals, dann die Voreinstellung; eine getippte Option geht allem vor.',
      channelSet: 'Was für {{name}} festgelegt ist:',
      notSet: 'nicht festgelegt',
      thisChannel: 'diesen Kanal',
      channel: 'den Kanal {{id}}',
      cleared: '{{setting}} gelöscht',
      savedForYou: 'Für dich gespeichert: {{changes}}.',
      savedFor: 'Für {{name}} gespeichert: {{changes}}.',
      refuse: {
        operatorNames: 'Nur der Betreiber nennt einen Kanal; tippe im Kanal selbst scope:channel.',
        console:
          'Die Konsole ist in keinem Kanal: nenne einen, scope:channel:discord:<Kanal-ID> oder scope:channel:slack:<Kanal-ID>.',
        noHome: 'Ein Kanal hat keinen Heimatort; lege deinen mit /settings home:<Ort> fest.',
        admins:
          'Nur ein Zeitplan-Admin (SCHEDULE_ADMIN_USERS oder SCHEDULE_ADMIN_ROLES, Nutzer-ID {{user}}) oder der Betreiber darf die Einstellungen eines Kanals ändern; {{/settings}} ändert deine eigenen.',
      },
    },
    fr: {
      labels: { timezone: 'Fuseau horaire', units: 'Unités', language: 'Langue', home: 'Lieu habituel' },
      inLine: { timezone: 'fuseau horaire', units: 'unités', language: 'langue', home: 'lieu habituel' },
      sources: {
        typed: 'saisi',
        user: 'le vôtre',
        channel: 'celui de ce salon',
        schedule: 'celui de la planification',
        platform: 'votre langue Discord ou Slack',
        default: 'par défaut',
      },
      none: 'aucun (définissez-en un avec /settings {{option}}:Oslo)',
      line: '{{name}} : {{value}}',
      applies: "Ce qui s'applique à vos commandes ici :",
      title: 'Vos réglages',
      footer:
        "Les vôtres d'abord, puis ceux de ce salon, puis ceux par défaut ; une option saisie l'emporte sur tout.",
      channelSet: 'Réglages pour {{name}} :',
      notSet: 'non défini',
      thisChannel: 'ce salon',
      channel: 'le salon {{id}}',
      cleared: '{{setting}} effacé',
      savedForYou: 'Enregistré pour vous : {{changes}}.',
      savedFor: 'Enregistré pour {{name}} : {{changes}}.',
      refuse: {
        operatorNames: "Seul l'opérateur nomme un salon ; dans le salon lui-même, tapez scope:channel.",
        console:
          "La console n'est dans aucun salon : nommez-en un, scope:channel:discord:<id du salon> ou scope:channel:slack:<id du salon>.",
        noHome: "Un salon n'a pas de lieu habituel ; définissez le vôtre avec /settings home:<lieu>.",
        admins:
          "Seul un administrateur des planifications (SCHEDULE_ADMIN_USERS ou SCHEDULE_ADMIN_ROLES, identifiant {{user}}) ou l'opérateur peut modifier les réglages d'un salon ; {{/settings}} modifie les vôtres.",
      },
    },
  },
);
