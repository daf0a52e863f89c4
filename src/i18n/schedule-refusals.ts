// /schedule's refusals of what it cannot add or do: the destination, `when`, a skip, a watch, a
// schedule's way of landing and simulated data. The words of `when`, option keys, variables and
// permission or scope names a platform shows in English stay as they are.
import { defineMessages } from './define.ts';

export const scheduleRefusals = defineMessages(
  {
    destination: {
      none: 'No destination is configured; set WEBHOOK_URL (the destination "default") or WEBHOOK_URL_<NAME>.',
      unknown: 'There is no destination "{{name}}"; the configured ones are {{known}}.',
      meHere: 'to:me is a direct message from herald on Discord or Slack; add the schedule there.',
      meThread:
        'Discord has no threads in a direct message; for thread:yes, add the schedule in a server channel.',
      notYourChannel:
        'You may not send messages in this channel yourself (View Channel and Send Messages), so herald will not post here for you; add the schedule with to:<destination> instead.',
      notMember:
        'You are not a member of this channel, so herald will not post here for you; join it first, or add the schedule with to:<destination>.',
      slackWebhook:
        'A Slack incoming webhook can neither edit a post nor reply in a thread; for {{option}}, add the schedule in a Slack channel herald is in (without to:), or to a Discord destination.',
    },
    /** What herald needs before it posts into the channel typed in, per platform's answer. */
    postHere: {
      discordPermissions:
        'To post here, herald needs View Channel, Send Messages, Embed Links and Attach Files in this channel; grant them to its role, or add the schedule with to:<destination>.',
      slackInvite:
        'To post here, invite herald to this channel (/invite @herald); it needs chat:write and files:write.',
      slackScopes:
        'To post here, herald cannot check this channel: add the channels:read and groups:read scopes to its Slack app and reinstall it, then invite it here (/invite @herald).',
    },
    when: {
      empty: 'when is empty; write it as {{examples}} or a cron expression such as {{cron}}.',
      unreadable:
        'I cannot read "{{text}}" as a schedule; write it as {{examples}} or a cron expression such as {{cron}}.',
      notTime: '"{{time}}" is not a time of day; write it as 07:30 or 7:30pm.',
      outOfRange: '"{{text}}" is out of range; use 1 to {{max}}.',
      badCron:
        '"{{cron}}" is not a valid cron expression ({{why}}); write five fields: minute hour day month weekday.',
      noRun: '"{{text}}" has no run in the next {{days}} days; check its day of the month and month.',
      tooOften_one:
        '"{{text}}" runs every 1 minute, more often than the {{minimum}}-minute minimum (SCHEDULE_MIN_INTERVAL_MINUTES).',
      tooOften_other:
        '"{{text}}" runs every {{gap}} minutes, more often than the {{minimum}}-minute minimum (SCHEDULE_MIN_INTERVAL_MINUTES).',
      timeZone:
        '"{{tz}}" is not a time zone I know; use an IANA name such as Europe/Berlin or America/New_York.',
    },
    skip: {
      paused: 'Schedule {{id}} is paused, so it has no next run to skip or restore.',
      already:
        'Schedule {{id}} already skips its run at {{at}}; {{/schedule unskip}} {{id}} takes that back.',
      none: 'Schedule {{id}} skips no run; {{/schedule skip}} {{id}} skips its next one.',
      noNext: 'Schedule {{id}} has no next run to skip.',
    },
    watch: {
      notWatchable: '/{{command}} cannot be a watch (only:new): only {{which}} can post just what is new.',
      alertFor: 'alert: is for a {{list}} watch; add only:new and schedule {{list}}.',
      needsAlert: 'A /{{command}} watch needs {{forms}}.',
      needsAlertNot: 'A /{{command}} watch needs {{forms}}, not "{{alert}}".',
    },
    simulated: {
      channel:
        'This schedule would post simulated {{services}} data to a real channel; configure {{variables}}, or set SCHEDULE_ALLOW_SIMULATED=true to post it marked as simulated.',
      destination:
        'This schedule would post simulated {{services}} data to the real destination "{{destination}}"; configure {{variables}}, or set SCHEDULE_ALLOW_SIMULATED=true to post it marked as simulated.',
    },
    line: {
      commandsOwn:
        "{{key}}: after the command line is also the command's own option, which a schedule cannot tell from its own; put /schedule's {{key}}: before the command line, or in its own field.",
      skip: 'must be holidays: and a country code, with its region where holidays differ: holidays:de or holidays:de-by',
      ping: 'ping: takes roles or users as mentions, separated by spaces: Discord’s @role or @user (<@&id>, <@id>), Slack’s @group or @user (<!subteam^ID>, <@U…>).',
    },
  },
  {
    de: {
      destination: {
        none: 'Es ist kein Ziel eingerichtet; setze WEBHOOK_URL (das Ziel „default“) oder WEBHOOK_URL_<NAME>.',
        unknown: 'Es gibt kein Ziel „{{name}}“; eingerichtet sind {{known}}.',
        meHere:
          'to:me ist eine Direktnachricht von herald auf Discord oder Slack; lege den Zeitplan dort an.',
        meThread:
          'Discord hat in Direktnachrichten keine Threads; für thread:yes lege den Zeitplan in einem Serverkanal an.',
        notYourChannel:
          'Du darfst in diesem Kanal selbst keine Nachrichten senden (Kanal ansehen und Nachrichten senden), also postet herald hier nicht für dich; lege den Zeitplan stattdessen mit to:<destination> an.',
        notMember:
          'Du bist kein Mitglied dieses Kanals, also postet herald hier nicht für dich; tritt ihm zuerst bei oder lege den Zeitplan mit to:<destination> an.',
        slackWebhook:
          'Ein eingehender Slack-Webhook kann einen Beitrag weder bearbeiten noch in einem Thread antworten; für {{option}} lege den Zeitplan in einem Slack-Kanal an, in dem herald ist (ohne to:), oder mit einem Discord-Ziel.',
      },
      postHere: {
        discordPermissions:
          'Um hier zu posten, braucht herald in diesem Kanal die Berechtigungen Kanal ansehen, Nachrichten senden, Links einbetten und Dateien anhängen; gib sie seiner Rolle oder lege den Zeitplan mit to:<destination> an.',
        slackInvite:
          'Um hier zu posten, lade herald in diesen Kanal ein (/invite @herald); es braucht chat:write und files:write.',
        slackScopes:
          'Um hier zu posten: herald kann diesen Kanal nicht prüfen; füge seiner Slack-App die Scopes channels:read und groups:read hinzu, installiere sie neu und lade herald dann hier ein (/invite @herald).',
      },
      when: {
        empty: 'when ist leer; schreibe es etwa als {{examples}} oder als Cron-Ausdruck wie {{cron}}.',
        unreadable:
          'Ich kann „{{text}}“ nicht als Zeitplan lesen; schreibe es etwa als {{examples}} oder als Cron-Ausdruck wie {{cron}}.',
        notTime: '„{{time}}“ ist keine Uhrzeit; schreibe sie als 07:30 oder 7:30pm.',
        outOfRange: '„{{text}}“ liegt außerhalb des Bereichs; nimm 1 bis {{max}}.',
        badCron:
          '„{{cron}}“ ist kein gültiger Cron-Ausdruck ({{why}}); schreibe fünf Felder: Minute Stunde Tag Monat Wochentag.',
        noRun: '„{{text}}“ läuft in den nächsten {{days}} Tagen nie; prüfe Tag des Monats und Monat.',
        tooOften_one:
          '„{{text}}“ läuft jede Minute, öfter als das Minimum von {{minimum}} Minuten (SCHEDULE_MIN_INTERVAL_MINUTES).',
        tooOften_other:
          '„{{text}}“ läuft alle {{gap}} Minuten, öfter als das Minimum von {{minimum}} Minuten (SCHEDULE_MIN_INTERVAL_MINUTES).',
        timeZone:
          '„{{tz}}“ ist keine Zeitzone, die ich kenne; nimm einen IANA-Namen wie Europe/Berlin oder America/New_York.',
      },
      skip: {
        paused:
          'Zeitplan {{id}} ist pausiert und hat daher keinen nächsten Lauf, der sich auslassen oder wiederherstellen ließe.',
        already:
          'Zeitplan {{id}} lässt schon seinen Lauf am {{at}} aus; {{/schedule unskip}} {{id}} nimmt das zurück.',
        none: 'Zeitplan {{id}} lässt keinen Lauf aus; {{/schedule skip}} {{id}} lässt den nächsten aus.',
        noNext: 'Zeitplan {{id}} hat keinen nächsten Lauf, der sich auslassen ließe.',
      },
      watch: {
        notWatchable:
          '/{{command}} kann keine Beobachtung sein (only:new): nur die Befehle {{which}} können ausschließlich Neues posten.',
        alertFor: 'alert: gilt für eine Beobachtung mit {{list}}; füge only:new hinzu und plane {{list}}.',
        needsAlert: 'Eine Beobachtung mit /{{command}} braucht {{forms}}.',
        needsAlertNot: 'Eine Beobachtung mit /{{command}} braucht {{forms}}, nicht „{{alert}}“.',
      },
      simulated: {
        channel:
          'Dieser Zeitplan würde simulierte Daten ({{services}}) in einen echten Kanal posten; richte {{variables}} ein oder setze SCHEDULE_ALLOW_SIMULATED=true, um sie als simuliert gekennzeichnet zu posten.',
        destination:
          'Dieser Zeitplan würde simulierte Daten ({{services}}) an das echte Ziel „{{destination}}“ posten; richte {{variables}} ein oder setze SCHEDULE_ALLOW_SIMULATED=true, um sie als simuliert gekennzeichnet zu posten.',
      },
      line: {
        commandsOwn:
          '{{key}}: nach der Befehlszeile ist auch eine eigene Option des Befehls, die ein Zeitplan nicht von seiner eigenen unterscheiden kann; setze das {{key}}: von /schedule vor die Befehlszeile oder in sein eigenes Feld.',
        skip: 'muss holidays: und ein Ländercode sein, mit Region, wo die Feiertage abweichen: holidays:de oder holidays:de-by',
        ping: 'ping: nimmt Rollen oder Personen als Erwähnungen, durch Leerzeichen getrennt: bei Discord @Rolle oder @Person (<@&id>, <@id>), bei Slack @Gruppe oder @Person (<!subteam^ID>, <@U…>).',
      },
    },
    fr: {
      destination: {
        none: 'Aucune destination n’est configurée ; définissez WEBHOOK_URL (la destination « default ») ou WEBHOOK_URL_<NAME>.',
        unknown: 'Il n’y a pas de destination « {{name}} » ; celles configurées sont {{known}}.',
        meHere:
          'to:me est un message privé de herald sur Discord ou Slack ; ajoutez la planification là-bas.',
        meThread:
          'Discord n’a pas de fils dans un message privé ; pour thread:yes, ajoutez la planification dans un salon de serveur.',
        notYourChannel:
          'Vous ne pouvez pas envoyer vous-même de messages dans ce salon (Voir le salon et Envoyer des messages), donc herald n’y publiera pas pour vous ; ajoutez plutôt la planification avec to:<destination>.',
        notMember:
          'Vous n’êtes pas membre de ce canal, donc herald n’y publiera pas pour vous ; rejoignez-le d’abord, ou ajoutez la planification avec to:<destination>.',
        slackWebhook:
          'Un webhook entrant Slack ne peut ni modifier une publication ni répondre dans un fil ; pour {{option}}, ajoutez la planification dans un canal Slack où se trouve herald (sans to:), ou vers une destination Discord.',
      },
      postHere: {
        discordPermissions:
          'Pour publier ici, herald a besoin des permissions Voir le salon, Envoyer des messages, Intégrer des liens et Joindre des fichiers dans ce salon ; accordez-les à son rôle, ou ajoutez la planification avec to:<destination>.',
        slackInvite:
          'Pour publier ici, invitez herald dans ce canal (/invite @herald) ; il a besoin de chat:write et files:write.',
        slackScopes:
          'Pour publier ici : herald ne peut pas vérifier ce canal ; ajoutez les scopes channels:read et groups:read à son application Slack et réinstallez-la, puis invitez herald ici (/invite @herald).',
      },
      when: {
        empty:
          'when est vide ; écrivez-le par exemple {{examples}} ou sous forme d’expression cron comme {{cron}}.',
        unreadable:
          'Je ne sais pas lire « {{text}} » comme planification ; écrivez-la par exemple {{examples}} ou sous forme d’expression cron comme {{cron}}.',
        notTime: '« {{time}} » n’est pas une heure ; écrivez-la 07:30 ou 7:30pm.',
        outOfRange: '« {{text}} » est hors limites ; utilisez 1 à {{max}}.',
        badCron:
          '« {{cron}} » n’est pas une expression cron valide ({{why}}) ; écrivez cinq champs : minute heure jour mois jour-de-semaine.',
        noRun:
          '« {{text}} » ne s’exécute pas dans les {{days}} prochains jours ; vérifiez son jour du mois et son mois.',
        tooOften_one:
          '« {{text}} » s’exécute chaque minute, plus souvent que le minimum de {{minimum}} minutes (SCHEDULE_MIN_INTERVAL_MINUTES).',
        tooOften_other:
          '« {{text}} » s’exécute toutes les {{gap}} minutes, plus souvent que le minimum de {{minimum}} minutes (SCHEDULE_MIN_INTERVAL_MINUTES).',
        timeZone:
          '« {{tz}} » n’est pas un fuseau horaire que je connais ; utilisez un nom IANA comme Europe/Berlin ou America/New_York.',
      },
      skip: {
        paused:
          'La planification {{id}} est en pause, elle n’a donc pas de prochaine exécution à sauter ou à rétablir.',
        already:
          'La planification {{id}} saute déjà son exécution du {{at}} ; {{/schedule unskip}} {{id}} annule cela.',
        none: 'La planification {{id}} ne saute aucune exécution ; {{/schedule skip}} {{id}} saute la prochaine.',
        noNext: 'La planification {{id}} n’a pas de prochaine exécution à sauter.',
      },
      watch: {
        notWatchable:
          '/{{command}} ne peut pas être une veille (only:new) : seules les commandes {{which}} peuvent publier uniquement les nouveautés.',
        alertFor: 'alert: sert à une veille {{list}} ; ajoutez only:new et planifiez {{list}}.',
        needsAlert: 'Une veille /{{command}} demande {{forms}}.',
        needsAlertNot: 'Une veille /{{command}} demande {{forms}}, pas « {{alert}} ».',
      },
      simulated: {
        channel:
          'Cette planification publierait des données simulées ({{services}}) dans un vrai canal ; configurez {{variables}}, ou définissez SCHEDULE_ALLOW_SIMULATED=true pour les publier marquées comme simulées.',
        destination:
          'Cette planification publierait des données simulées ({{services}}) vers la vraie destination « {{destination}} » ; configurez {{variables}}, ou définissez SCHEDULE_ALLOW_SIMULATED=true pour les publier marquées comme simulées.',
      },
      line: {
        commandsOwn:
          '{{key}}: après la ligne de commande est aussi une option propre de la commande, qu’une planification ne peut distinguer de la sienne ; placez le {{key}}: de /schedule avant la ligne de commande, ou dans son propre champ.',
        skip: 'doit être holidays: suivi d’un code de pays, avec sa région là où les jours fériés diffèrent : holidays:de ou holidays:de-by',
        ping: 'ping: prend des rôles ou des personnes sous forme de mentions, séparées par des espaces : sur Discord @rôle ou @personne (<@&id>, <@id>), sur Slack @groupe ou @personne (<!subteam^ID>, <@U…>).',
      },
    },
  },
);

/** What herald needs before it may post into a channel typed in, as the platform answered. */
export type PostingGrant = keyof (typeof scheduleRefusals)['en-GB']['postHere'];
