// /schedule (commands/schedule.ts, schedule-format.ts), the service's refusals and the notices a
// schedule's runs send (src/schedule/). The words of `when` and the option keys stay English.
import { defineMessages } from './define.ts';

export const schedule = defineMessages(
  {
    where: {
      here: 'in this channel',
      channel: 'in the {{platform}} channel {{id}}',
      to: 'to {{name}}',
      for: 'for {{name}}',
    },
    actions: {
      runNow: 'Run now',
      remove: 'Remove',
      preview: 'Preview',
      runId: 'Run {{id}} now',
      pauseId: 'Pause {{id}}',
      resumeId: 'Resume {{id}}',
      removeId: 'Remove {{id}}',
      previousPage: 'Previous page',
      nextPage: 'Next page',
    },
    none: 'none',
    paused: 'paused',
    pausedMark: ' (paused)',
    unknownError: 'unknown error',
    added: {
      text: 'Schedule {{id}} added: {{words}} ({{tz}}), {{command}} {{where}}.',
      title: 'Schedule {{id}} added',
      when: 'When',
      command: 'Command',
      destination: 'Destination',
      nextRuns: 'Next runs',
      footer: 'Next: {{/schedule run}} {{id}} to post now, {{/schedule remove}} {{id}} to remove it',
    },
    run: {
      posted: 'posted {{at}}',
      message: ' (message {{message}})',
      messageIn: ' (message {{message}} in channel {{channel}})',
      noChange: 'no change {{at}}: nothing new, nothing posted',
      missed: 'missed {{at}}: {{why}}',
      skipped: 'skipped ({{why}})',
      pending: 'pending since {{at}}: {{why}}',
      nextTry: ' Next try {{at}}.',
      failed: 'failed {{at}}: {{why}}',
      notYet: 'not run yet',
    },
    isPaused: 'Schedule {{id}} is paused; {{/schedule resume}} {{id}} starts it again.',
    resumed: 'Schedule {{id}} resumed; next run {{next}}.',
    skipped:
      'Schedule {{id}} skips its run at {{at}}; next run {{next}}. {{/schedule unskip}} {{id}} takes that back.',
    unskipped: 'Schedule {{id}} runs at {{at}} after all; {{/schedule skip}} {{id}} skips it again.',
    removed: 'Schedule {{id}} ({{words}}, {{command}}) removed.',
    ran: {
      posted: 'Schedule {{id}} posted {{command}} {{where}}.',
      noChange: 'Schedule {{id}} ran: nothing new since its last post, so nothing was posted.',
      pending: 'Schedule {{id}} ran; {{why}}',
      pendingWhy: 'its post waits in the outbox for a retry.',
      skipped: 'Schedule {{id}} did not run: {{why}}.',
      skippedWhy: 'another run holds it',
      failed: 'Schedule {{id}} failed: {{why}}',
    },
    preview: {
      head: 'Preview of {{line}} {{where}} (not posted, not added; next run {{next}}):',
      fails: '{{head}} it fails now, so it would fail then: {{error}}',
    },
    form: {
      title: 'New schedule',
      when: 'When',
      command: 'Command',
      to: 'Destination (to)',
      tz: 'Time zone (tz)',
      more: 'Further options, as typed',
      hint: 'e.g. only:new alert:rain preview:yes',
      hints: {
        when: 'e.g. "every weekday at 07:30", "every 2 hours" or a cron expression (in English)',
        command: 'The command line, e.g. /weather Oslo units:imperial',
        to: 'A configured destination, or me: a direct message to you (default: this channel)',
        tz: 'IANA time zone, e.g. Europe/Berlin (default: yours, else the channel’s)',
      },
    },
    refuse: {
      notReading:
        '/{{command}} cannot be scheduled: only commands that read can, such as /weather, /jobs or /report.',
      builtIn: '{{name}} is built in (set by {{variables}}); it cannot be changed from chat.',
      noSuch: 'There is no schedule "{{id}}"; {{/schedule list}} shows them all.',
      notYours:
        'Schedule {{id}} was added by {{creator}}, so only they, the operator or a schedule admin (SCHEDULE_ADMIN_USERS or SCHEDULE_ADMIN_ROLES, user id {{user}}) may {{verb}}.',
      verbs: {
        remove: 'remove it',
        pause: 'pause it',
        resume: 'resume it',
        run: 'run it',
        skip: 'skip a run of it',
        unskip: 'unskip a run of it',
      },
      pingAdmins:
        'Only a schedule admin (SCHEDULE_ADMIN_USERS or SCHEDULE_ADMIN_ROLES, user id {{user}}) or the operator may set ping:, so that no schedule pings people unasked.',
      editOrThread: 'Choose mode:edit (one post, edited) or thread:yes (replies in a thread), not both.',
      pingPlatform: "ping: names a mention of another platform than this {{platform}} channel's.",
      full: 'There are already {{max}} schedules, the most SCHEDULE_MAX allows; remove one first.',
    },
    notice: {
      streak:
        'Schedule {{id}} ({{command}} → {{destination}}) failed {{count}} times in a row, last: {{error}} Fix it, or preview it with /schedule add … preview:yes; {{/schedule history}} {{id}} shows each run.',
      refused:
        '{{reason}} So schedule {{id}} ({{command}}) is paused; once that is fixed, {{/schedule resume}} {{id}}.',
      goneChannel:
        'The channel {{channel}} answered HTTP {{status}} (webhook deleted or bot removed?), so schedule {{id}} is paused; fix the destination, then {{/schedule resume}} {{id}}.',
      goneDestination:
        'The destination {{name}} answered HTTP {{status}} (webhook deleted or bot removed?), so schedule {{id}} is paused; fix the destination, then {{/schedule resume}} {{id}}.',
    },
  },
  {
    de: {
      where: {
        here: 'in diesem Kanal',
        channel: 'im {{platform}}-Kanal {{id}}',
        to: 'an {{name}}',
        for: 'für {{name}}',
      },
      actions: {
        runNow: 'Jetzt ausführen',
        remove: 'Entfernen',
        preview: 'Vorschau',
        runId: '{{id}} jetzt ausführen',
        pauseId: '{{id}} pausieren',
        resumeId: '{{id}} fortsetzen',
        removeId: '{{id}} entfernen',
        previousPage: 'Vorherige Seite',
        nextPage: 'Nächste Seite',
      },
      none: 'keiner',
      paused: 'pausiert',
      pausedMark: ' (pausiert)',
      unknownError: 'unbekannter Fehler',
      added: {
        text: 'Zeitplan {{id}} angelegt: {{words}} ({{tz}}), {{command}} {{where}}.',
        title: 'Zeitplan {{id}} angelegt',
        when: 'Wann',
        command: 'Befehl',
        destination: 'Ziel',
        nextRuns: 'Nächste Läufe',
        footer:
          'Weiter: {{/schedule run}} {{id}} postet sofort, {{/schedule remove}} {{id}} entfernt den Zeitplan',
      },
      run: {
        posted: 'gepostet {{at}}',
        message: ' (Nachricht {{message}})',
        messageIn: ' (Nachricht {{message}} in Kanal {{channel}})',
        noChange: 'keine Änderung {{at}}: nichts Neues, nichts gepostet',
        missed: 'verpasst {{at}}: {{why}}',
        skipped: 'übersprungen ({{why}})',
        pending: 'ausstehend seit {{at}}: {{why}}',
        nextTry: ' Nächster Versuch {{at}}.',
        failed: 'fehlgeschlagen {{at}}: {{why}}',
        notYet: 'noch nicht gelaufen',
      },
      isPaused: 'Zeitplan {{id}} ist pausiert; {{/schedule resume}} {{id}} startet ihn wieder.',
      resumed: 'Zeitplan {{id}} fortgesetzt; nächster Lauf {{next}}.',
      skipped:
        'Zeitplan {{id}} überspringt seinen Lauf am {{at}}; nächster Lauf {{next}}. {{/schedule unskip}} {{id}} nimmt das zurück.',
      unskipped:
        'Zeitplan {{id}} läuft am {{at}} nun doch; {{/schedule skip}} {{id}} überspringt den Lauf wieder.',
      removed: 'Zeitplan {{id}} ({{words}}, {{command}}) entfernt.',
      ran: {
        posted: 'Zeitplan {{id}} hat {{command}} {{where}} gepostet.',
        noChange: 'Zeitplan {{id}} ist gelaufen: nichts Neues seit dem letzten Post, daher nichts gepostet.',
        pending: 'Zeitplan {{id}} ist gelaufen; {{why}}',
        pendingWhy: 'sein Post wartet im Postausgang auf einen neuen Versuch.',
        skipped: 'Zeitplan {{id}} ist nicht gelaufen: {{why}}.',
        skippedWhy: 'ein anderer Lauf hält ihn',
        failed: 'Zeitplan {{id}} ist fehlgeschlagen: {{why}}',
      },
      preview: {
        head: 'Vorschau von {{line}} {{where}} (nicht gepostet, nicht angelegt; nächster Lauf {{next}}):',
        fails: '{{head}} er schlägt jetzt fehl, also würde er dann auch fehlschlagen: {{error}}',
      },
      form: {
        title: 'Neuer Zeitplan',
        when: 'Wann (when)',
        command: 'Befehl (command)',
        to: 'Ziel (to)',
        tz: 'Zeitzone (tz)',
        more: 'Weitere Optionen, wie getippt',
        hint: 'z. B. only:new alert:rain preview:yes',
        hints: {
          when: 'z. B. "every weekday at 07:30", "every 2 hours" oder ein Cron-Ausdruck (auf Englisch)',
          command: 'Die Befehlszeile, z. B. /weather Oslo units:imperial',
          to: 'Ein eingerichtetes Ziel, oder me: eine Direktnachricht an dich (sonst dieser Kanal)',
          tz: 'IANA-Zeitzone, z. B. Europe/Berlin (sonst deine, dann die des Kanals)',
        },
      },
      refuse: {
        notReading:
          '/{{command}} lässt sich nicht planen: nur Befehle, die etwas abrufen, etwa /weather, /jobs oder /report.',
        builtIn:
          '{{name}} ist eingebaut (festgelegt durch {{variables}}); er lässt sich im Chat nicht ändern.',
        noSuch: 'Es gibt keinen Zeitplan "{{id}}"; {{/schedule list}} zeigt alle.',
        notYours:
          'Zeitplan {{id}} wurde von {{creator}} angelegt, daher dürfen nur diese Person, der Betreiber oder ein Zeitplan-Admin (SCHEDULE_ADMIN_USERS oder SCHEDULE_ADMIN_ROLES, Nutzer-ID {{user}}) {{verb}}.',
        verbs: {
          remove: 'ihn entfernen',
          pause: 'ihn pausieren',
          resume: 'ihn fortsetzen',
          run: 'ihn ausführen',
          skip: 'einen seiner Läufe überspringen',
          unskip: 'das Überspringen eines seiner Läufe zurücknehmen',
        },
        pingAdmins:
          'Nur ein Zeitplan-Admin (SCHEDULE_ADMIN_USERS oder SCHEDULE_ADMIN_ROLES, Nutzer-ID {{user}}) oder der Betreiber darf ping: setzen, damit kein Zeitplan ungefragt Leute erwähnt.',
        editOrThread:
          'Wähle mode:edit (ein Post, der bearbeitet wird) oder thread:yes (Antworten in einem Thread), nicht beides.',
        pingPlatform:
          'ping: nennt eine Erwähnung einer anderen Plattform als der dieses {{platform}}-Kanals.',
        full: 'Es gibt bereits {{max}} Zeitpläne, so viele wie SCHEDULE_MAX erlaubt; entferne zuerst einen.',
      },
      notice: {
        streak:
          'Zeitplan {{id}} ({{command}} → {{destination}}) ist {{count}}-mal in Folge fehlgeschlagen, zuletzt: {{error}} Behebe das oder sieh es dir mit /schedule add … preview:yes an; {{/schedule history}} {{id}} zeigt jeden Lauf.',
        refused:
          '{{reason}} Daher ist Zeitplan {{id}} ({{command}}) pausiert; sobald das behoben ist: {{/schedule resume}} {{id}}.',
        goneChannel:
          'Der Kanal {{channel}} hat mit HTTP {{status}} geantwortet (Webhook gelöscht oder Bot entfernt?), daher ist Zeitplan {{id}} pausiert; korrigiere das Ziel, dann {{/schedule resume}} {{id}}.',
        goneDestination:
          'Das Ziel {{name}} hat mit HTTP {{status}} geantwortet (Webhook gelöscht oder Bot entfernt?), daher ist Zeitplan {{id}} pausiert; korrigiere das Ziel, dann {{/schedule resume}} {{id}}.',
      },
    },
    fr: {
      where: {
        here: 'dans ce salon',
        channel: 'dans le salon {{platform}} {{id}}',
        to: 'vers {{name}}',
        for: 'pour {{name}}',
      },
      actions: {
        runNow: 'Exécuter maintenant',
        remove: 'Supprimer',
        preview: 'Aperçu',
        runId: 'Exécuter {{id}} maintenant',
        pauseId: 'Suspendre {{id}}',
        resumeId: 'Reprendre {{id}}',
        removeId: 'Supprimer {{id}}',
        previousPage: 'Page précédente',
        nextPage: 'Page suivante',
      },
      none: 'aucune',
      paused: 'suspendue',
      pausedMark: ' (suspendue)',
      unknownError: 'erreur inconnue',
      added: {
        text: 'Planification {{id}} ajoutée : {{words}} ({{tz}}), {{command}} {{where}}.',
        title: 'Planification {{id}} ajoutée',
        when: 'Quand',
        command: 'Commande',
        destination: 'Où publier',
        nextRuns: 'Prochaines exécutions',
        footer:
          'Ensuite : {{/schedule run}} {{id}} pour publier maintenant, {{/schedule remove}} {{id}} pour la supprimer',
      },
      run: {
        posted: 'publiée {{at}}',
        message: ' (identifiant du message {{message}})',
        messageIn: ' (message {{message}} dans le salon {{channel}})',
        noChange: 'aucun changement {{at}} : rien de nouveau, rien publié',
        missed: 'manquée {{at}} : {{why}}',
        skipped: 'sautée ({{why}})',
        pending: 'en attente depuis {{at}} : {{why}}',
        nextTry: ' Prochain essai {{at}}.',
        failed: 'échec {{at}} : {{why}}',
        notYet: 'pas encore exécutée',
      },
      isPaused: 'La planification {{id}} est suspendue ; {{/schedule resume}} {{id}} la relance.',
      resumed: 'Planification {{id}} reprise ; prochaine exécution {{next}}.',
      skipped:
        "La planification {{id}} saute son exécution du {{at}} ; prochaine exécution {{next}}. {{/schedule unskip}} {{id}} l'annule.",
      unskipped:
        "La planification {{id}} s'exécutera finalement le {{at}} ; {{/schedule skip}} {{id}} la saute de nouveau.",
      removed: 'Planification {{id}} ({{words}}, {{command}}) supprimée.',
      ran: {
        posted: 'La planification {{id}} a publié {{command}} {{where}}.',
        noChange:
          "La planification {{id}} s'est exécutée : rien de nouveau depuis sa dernière publication, donc rien n'a été publié.",
        pending: "La planification {{id}} s'est exécutée ; {{why}}",
        pendingWhy: "sa publication attend dans la boîte d'envoi une nouvelle tentative.",
        skipped: "La planification {{id}} ne s'est pas exécutée : {{why}}.",
        skippedWhy: 'une autre exécution la tient',
        failed: 'La planification {{id}} a échoué : {{why}}',
      },
      preview: {
        head: 'Aperçu de {{line}} {{where}} (non publié, non ajouté ; prochaine exécution {{next}}) :',
        fails: '{{head}} elle échoue maintenant, elle échouerait donc aussi à ce moment-là : {{error}}',
      },
      form: {
        title: 'Nouvelle planification',
        when: 'Quand (when)',
        command: 'Commande (command)',
        to: 'Où publier (to)',
        tz: 'Fuseau horaire (tz)',
        more: 'Autres options, telles que saisies',
        hint: 'par ex. only:new alert:rain preview:yes',
        hints: {
          when: 'par ex. "every weekday at 07:30", "every 2 hours" ou une expression cron (en anglais)',
          command: 'La ligne de commande, par ex. /weather Oslo units:imperial',
          to: 'Une destination configurée, ou me : un message privé pour vous (sinon ce salon)',
          tz: 'Fuseau horaire IANA, par ex. Europe/Berlin (sinon le vôtre, puis celui du salon)',
        },
      },
      refuse: {
        notReading:
          '/{{command}} ne peut pas être planifiée : seules les commandes qui consultent le peuvent, comme /weather, /jobs ou /report.',
        builtIn:
          '{{name}} est intégrée (définie par {{variables}}) ; elle ne peut pas être modifiée depuis le chat.',
        noSuch: 'Il n\'existe pas de planification "{{id}}" ; {{/schedule list}} les affiche toutes.',
        notYours:
          "La planification {{id}} a été ajoutée par {{creator}} : seuls cette personne, l'opérateur ou un administrateur des planifications (SCHEDULE_ADMIN_USERS ou SCHEDULE_ADMIN_ROLES, identifiant {{user}}) peuvent {{verb}}.",
        verbs: {
          remove: 'la supprimer',
          pause: 'la suspendre',
          resume: 'la reprendre',
          run: "l'exécuter",
          skip: 'sauter une de ses exécutions',
          unskip: "annuler le saut d'une de ses exécutions",
        },
        pingAdmins:
          "Seul un administrateur des planifications (SCHEDULE_ADMIN_USERS ou SCHEDULE_ADMIN_ROLES, identifiant {{user}}) ou l'opérateur peut définir ping:, afin qu'aucune planification ne mentionne des gens sans leur accord.",
        editOrThread:
          'Choisissez mode:edit (une publication, modifiée) ou thread:yes (réponses dans un fil), pas les deux.',
        pingPlatform: "ping: désigne une mention d'une autre plateforme que celle de ce salon {{platform}}.",
        full: 'Il y a déjà {{max}} planifications, le maximum que permet SCHEDULE_MAX ; supprimez-en une d’abord.',
      },
      notice: {
        streak:
          'La planification {{id}} ({{command}} → {{destination}}) a échoué {{count}} fois de suite, dernière erreur : {{error}} Corrigez-la, ou prévisualisez-la avec /schedule add … preview:yes ; {{/schedule history}} {{id}} montre chaque exécution.',
        refused:
          '{{reason}} La planification {{id}} ({{command}}) est donc suspendue ; une fois le problème corrigé, {{/schedule resume}} {{id}}.',
        goneChannel:
          'Le salon {{channel}} a répondu HTTP {{status}} (webhook supprimé ou bot retiré ?), la planification {{id}} est donc suspendue ; corrigez la destination, puis {{/schedule resume}} {{id}}.',
        goneDestination:
          'La destination {{name}} a répondu HTTP {{status}} (webhook supprimé ou bot retiré ?), la planification {{id}} est donc suspendue ; corrigez la destination, puis {{/schedule resume}} {{id}}.',
      },
    },
  },
);
