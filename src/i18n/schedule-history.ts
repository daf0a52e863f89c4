// /schedule history and /schedule audit (commands/schedule-format.ts): a schedule's runs, and who
// changed what.
import { defineMessages } from './define.ts';

export const scheduleHistory = defineMessages(
  {
    history: {
      none: 'Schedule {{id}}{{state}} has not run yet; {{/schedule run}} {{id}} runs it now.',
      byHand: 'run by hand',
      slot: 'slot {{at}}',
      viewMessage: 'view message',
      text_one:
        'Schedule {{id}}{{state}}, {{command}} → {{destination}}: the last {{count}} run, newest first.',
      text_other:
        'Schedule {{id}}{{state}}, {{command}} → {{destination}}: the last {{count}} runs, newest first.',
      title: 'Schedule {{id}} history',
    },
    audit: {
      line: {
        add: '{{at}} · {{who}} added {{id}} ({{via}})',
        pause: '{{at}} · {{who}} paused {{id}} ({{via}})',
        resume: '{{at}} · {{who}} resumed {{id}} ({{via}})',
        skip: '{{at}} · {{who}} skipped the next run of {{id}} ({{via}})',
        unskip: '{{at}} · {{who}} took back the skip of {{id}} ({{via}})',
        remove: '{{at}} · {{who}} removed {{id}} ({{via}})',
        import: '{{at}} · {{who}} imported {{id}} ({{via}})',
      },
      via: {
        typed: 'typed',
        button: 'a button',
        form: 'the form',
        home: 'the Home tab',
        console: 'the console',
      },
      all: 'the schedules you may see',
      one: 'schedule {{id}}',
      none: 'No changes are recorded for {{which}}.',
      text_one: 'The last change to {{which}}, newest first.',
      text_other: 'The last {{count}} changes to {{which}}, newest first.',
      title: 'Schedule audit',
      adminsOnly:
        'Only a schedule admin (SCHEDULE_ADMIN_USERS or SCHEDULE_ADMIN_ROLES) or the operator may read the audit.',
    },
  },
  {
    de: {
      history: {
        none: 'Zeitplan {{id}}{{state}} ist noch nicht gelaufen; {{/schedule run}} {{id}} führt ihn jetzt aus.',
        byHand: 'von Hand ausgeführt',
        slot: 'Termin {{at}}',
        viewMessage: 'Nachricht ansehen',
        text_one:
          'Zeitplan {{id}}{{state}}, {{command}} → {{destination}}: {{count}} letzter Lauf, neuester zuerst.',
        text_other:
          'Zeitplan {{id}}{{state}}, {{command}} → {{destination}}: die letzten {{count}} Läufe, neueste zuerst.',
        title: 'Verlauf von Zeitplan {{id}}',
      },
      audit: {
        line: {
          add: '{{at}} · {{who}} hat {{id}} angelegt ({{via}})',
          pause: '{{at}} · {{who}} hat {{id}} pausiert ({{via}})',
          resume: '{{at}} · {{who}} hat {{id}} fortgesetzt ({{via}})',
          skip: '{{at}} · {{who}} hat den nächsten Lauf von {{id}} übersprungen ({{via}})',
          unskip: '{{at}} · {{who}} hat das Überspringen von {{id}} zurückgenommen ({{via}})',
          remove: '{{at}} · {{who}} hat {{id}} entfernt ({{via}})',
          import: '{{at}} · {{who}} hat {{id}} importiert ({{via}})',
        },
        via: {
          typed: 'getippt',
          button: 'per Schaltfläche',
          form: 'per Formular',
          home: 'im Home-Tab',
          console: 'in der Konsole',
        },
        all: 'die Zeitpläne, die du sehen darfst',
        one: 'Zeitplan {{id}}',
        none: 'Für {{which}} sind keine Änderungen verzeichnet.',
        text_one: 'Die letzte Änderung an {{which}}, neueste zuerst.',
        text_other: 'Die letzten {{count}} Änderungen an {{which}}, neueste zuerst.',
        title: 'Änderungsprotokoll der Zeitpläne',
        adminsOnly:
          'Nur ein Zeitplan-Admin (SCHEDULE_ADMIN_USERS oder SCHEDULE_ADMIN_ROLES) oder der Betreiber darf das Änderungsprotokoll lesen.',
      },
    },
    fr: {
      history: {
        none: "La planification {{id}}{{state}} n'a pas encore été exécutée ; {{/schedule run}} {{id}} l'exécute maintenant.",
        byHand: 'exécutée à la main',
        slot: 'créneau {{at}}',
        viewMessage: 'voir le message',
        text_one:
          'Planification {{id}}{{state}}, {{command}} → {{destination}} : {{count}} dernière exécution, la plus récente en premier.',
        text_other:
          'Planification {{id}}{{state}}, {{command}} → {{destination}} : les {{count}} dernières exécutions, la plus récente en premier.',
        title: 'Historique de la planification {{id}}',
      },
      audit: {
        line: {
          add: '{{at}} · {{who}} a ajouté {{id}} ({{via}})',
          pause: '{{at}} · {{who}} a suspendu {{id}} ({{via}})',
          resume: '{{at}} · {{who}} a repris {{id}} ({{via}})',
          skip: '{{at}} · {{who}} a sauté la prochaine exécution de {{id}} ({{via}})',
          unskip: '{{at}} · {{who}} a annulé le saut de {{id}} ({{via}})',
          remove: '{{at}} · {{who}} a supprimé {{id}} ({{via}})',
          import: '{{at}} · {{who}} a importé {{id}} ({{via}})',
        },
        via: {
          typed: 'saisie',
          button: 'un bouton',
          form: 'le formulaire',
          home: "l'onglet Accueil",
          console: 'la console',
        },
        all: 'les planifications que vous pouvez voir',
        one: 'la planification {{id}}',
        none: "Aucune modification n'est enregistrée pour {{which}}.",
        text_one: 'La dernière modification de {{which}}, la plus récente en premier.',
        text_other: 'Les {{count}} dernières modifications de {{which}}, la plus récente en premier.',
        title: 'Journal des planifications',
        adminsOnly:
          "Seul un administrateur des planifications (SCHEDULE_ADMIN_USERS ou SCHEDULE_ADMIN_ROLES) ou l'opérateur peut lire le journal.",
      },
    },
  },
);
