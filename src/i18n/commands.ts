// What each command and option is for, as /help and Discord's command list show it (descriptions
// at most 100 characters each; the names Discord shows are in discord-names.ts). The English is the definitions' own
// (test/i18n/commands.test.ts checks they agree); `options` at the top holds the descriptions
// several commands share, used where a command's option has exactly that English description.
// A placeholder whose English is a command ("{{say}}": "/say") is written as the reader finds that
// command (`slashName`): "/sprechen" in Discord's German command list, "/say" on Slack.
import { defineMessages } from './define.ts';

const SCHEDULE_ID = 'The schedule id, as {{list}} shows it';

export const commands = defineMessages(
  {
    options: {
      city: 'City name, optionally with a country code: "Paris,FR" (default: your home place)',
      units: 'metric (°C, m/s), imperial (°F, mph) or standard (K, m/s)',
      speak: 'yes: also a short spoken version (mp3), counted against your {{say}} budget',
      id: SCHEDULE_ID,
    },
    weather: { description: 'Current weather for a city' },
    forecast: { description: '5-day forecast for a city: low, high and conditions per day' },
    geocode: {
      description: 'Find the coordinates of a place, with a map link',
      query: 'What to look for: a place, an address or a landmark',
      limit: 'How many matches to show (1-10)',
    },
    host: {
      description: 'What the internet scanner knows about an IP address: ports, services, vulnerabilities',
      ip: 'An IPv4 or IPv6 address, e.g. 8.8.8.8',
    },
    jobs: {
      description: 'Search job listings in one country, page by page',
      what: 'Search terms, e.g. "rust developer"',
      where: 'Town, city or region',
      country:
        'Two-letter country code: at, au, be, br, ca, ch, de, es, fr, gb, in, it, mx, nl, nz, pl, sg, us, za',
      page: 'Page of results, from 1',
      size: 'Listings per page, from 1 to 50 (default 5)',
    },
    say: {
      description: 'Speak a text aloud: replies with an mp3',
      text: 'The text to speak (at most {{limit}} characters)',
      voice: 'Voice name or id; {{voices}} lists them',
    },
    'read-aloud': {
      description: 'Read a message aloud: replies with an mp3',
      menu: 'Read aloud',
      text: 'The message as words, as the adapter read it',
    },
    voices: { description: 'List the voices {{say}} can use' },
    email: { description: 'Email: send, status' },
    'email send': {
      description: 'Send an email',
      to: 'Recipient address, e.g. ops@example.com',
      subject: 'Subject line',
      body: 'Message text; a blank line starts a paragraph',
    },
    'email status': {
      description: 'Show a sent email and its latest delivery event',
      id: 'The id {{send}} replied with',
    },
    report: {
      description: 'Analytics summary: sessions, users and events against the previous period',
      range: 'The period ending yesterday: yesterday, 7d, 28d or 90d',
    },
    schedule: {
      description: 'Schedule: add, list, history, remove, pause, resume, skip, unskip, run, audit',
    },
    'schedule add': {
      description: 'Post a command’s reply to a channel on a schedule',
      when: 'When: "every weekday at 07:30", "every 2 hours" or a cron expression',
      command: 'The command line, e.g. /weather Oslo units:imperial',
      to: 'A configured destination, or me: a direct message to you (default: this channel, else default)',
      tz: 'IANA time zone, e.g. Europe/Berlin (default: yours, else the channel’s, else SCHEDULE_TZ)',
      only: 'new: a watch, posting only what is new since its last post',
      alert: 'With only:new on /forecast: rain, snow, "below 0" or "above 30"',
      preview: 'yes: run the command once now and show the post, without posting or adding it',
      mode: 'edit: one post, edited in place by each run (a status board)',
      thread: 'yes: the first run starts a thread, later runs reply in it',
      skip: 'holidays:de, or holidays:de-by for a region: no post on its public holidays',
      ping: 'Schedule admins only: the roles or users each post pings, e.g. @on-call',
    },
    'schedule list': {
      description: 'List the schedules, their next and last runs',
      page: 'Page of a long list, from 1',
    },
    'schedule history': {
      description: 'The last runs of a schedule: when, outcome, duration and the posted message',
    },
    'schedule remove': { description: 'Remove a schedule' },
    'schedule pause': { description: 'Pause a schedule until it is resumed' },
    'schedule resume': { description: 'Resume a paused schedule' },
    'schedule skip': { description: 'Skip the next run of a schedule' },
    'schedule unskip': { description: 'Take back a {{skip}}: that run runs' },
    'schedule run': { description: 'Post a schedule now, outside its times' },
    'schedule audit': {
      description: 'Who added, paused, resumed or removed schedules, and how (schedule admins)',
    },
    settings: {
      description: 'Your time zone, units, language and home place; a channel’s with scope:channel',
      tz: 'Your time zone, IANA: Europe/Berlin (default clears it)',
      units: 'metric, imperial or standard for {{weather}} and {{forecast}} (default clears it)',
      language: 'en-GB, de or fr (default clears it)',
      home: 'Your home place, for {{weather}} and {{forecast}} without a city: "Paris,FR" (default clears it)',
      scope: 'me (default), or channel: this channel’s values, set by schedule admins',
    },
    help: {
      description: 'List the commands, or explain one',
      command: 'A command name, e.g. weather or email send',
    },
  },
  {
    de: {
      options: {
        city: 'Stadtname, optional mit Ländercode: "Paris,FR" (Standard: dein Heimatort)',
        units: 'metric (°C, m/s), imperial (°F, mph) oder standard (K, m/s)',
        speak: 'yes: zusätzlich eine kurze gesprochene Fassung (mp3), zählt zu deinem {{say}}-Kontingent',
        id: 'Die Zeitplan-ID, wie {{list}} sie zeigt',
      },
      weather: { description: 'Aktuelles Wetter für eine Stadt' },
      forecast: { description: '5-Tage-Vorhersage für eine Stadt: Tief, Hoch und Wetterlage pro Tag' },
      geocode: {
        description: 'Findet die Koordinaten eines Ortes, mit Kartenlink',
        query: 'Wonach gesucht wird: ein Ort, eine Adresse oder ein Wahrzeichen',
        limit: 'Wie viele Treffer gezeigt werden (1-10)',
      },
      host: {
        description: 'Was der Internet-Scanner über eine IP-Adresse weiß: Ports, Dienste, Schwachstellen',
        ip: 'Eine IPv4- oder IPv6-Adresse, z. B. 8.8.8.8',
      },
      jobs: {
        description: 'Sucht Stellenanzeigen in einem Land, Seite für Seite',
        what: 'Suchbegriffe, z. B. "rust developer"',
        where: 'Ort, Stadt oder Region',
        country:
          'Ländercode aus zwei Buchstaben: at, au, be, br, ca, ch, de, es, fr, gb, in, it, mx, nl, nz, pl, sg, us, za',
        page: 'Ergebnisseite, ab 1',
        size: 'Anzeigen pro Seite, 1 bis 50 (Standard 5)',
      },
      say: {
        description: 'Spricht einen Text: antwortet mit einer mp3',
        text: 'Der zu sprechende Text (höchstens {{limit}} Zeichen)',
        voice: 'Name oder ID einer Stimme; {{voices}} listet sie auf',
      },
      'read-aloud': {
        description: 'Liest eine Nachricht vor: antwortet mit einer mp3',
        menu: 'Vorlesen',
        text: 'Die Nachricht als Wörter, wie der Adapter sie gelesen hat',
      },
      voices: { description: 'Listet die Stimmen, die {{say}} verwenden kann' },
      email: { description: 'E-Mail: send, status' },
      'email send': {
        description: 'Sendet eine E-Mail',
        to: 'Empfängeradresse, z. B. ops@example.com',
        subject: 'Betreffzeile',
        body: 'Nachrichtentext; eine Leerzeile beginnt einen Absatz',
      },
      'email status': {
        description: 'Zeigt eine gesendete E-Mail und ihr letztes Zustellereignis',
        id: 'Die ID, mit der {{send}} geantwortet hat',
      },
      report: {
        description: 'Analyse-Übersicht: Sitzungen, Nutzer und Ereignisse im Vergleich zum Vorzeitraum',
        range: 'Der Zeitraum bis gestern: yesterday, 7d, 28d oder 90d',
      },
      schedule: {
        description: 'Zeitpläne: add, list, history, remove, pause, resume, skip, unskip, run, audit',
      },
      'schedule add': {
        description: 'Postet die Antwort eines Befehls nach Zeitplan in einen Kanal',
        when: 'Wann: "every weekday at 07:30", "every 2 hours" oder ein Cron-Ausdruck (auf Englisch)',
        command: 'Die Befehlszeile, z. B. /weather Oslo units:imperial',
        to: 'Ein eingerichtetes Ziel, oder me: eine Direktnachricht an dich (Standard: dieser Kanal)',
        tz: 'IANA-Zeitzone, z. B. Europe/Berlin (Standard: deine, sonst die des Kanals, sonst SCHEDULE_TZ)',
        only: 'new: eine Beobachtung, die nur postet, was seit dem letzten Post neu ist',
        alert: 'Mit only:new bei /forecast: rain, snow, "below 0" oder "above 30"',
        preview: 'yes: führt den Befehl einmal aus und zeigt den Post, ohne ihn zu posten oder anzulegen',
        mode: 'edit: ein einziger Post, bei jedem Lauf aktualisiert (eine Statustafel)',
        thread: 'yes: der erste Lauf startet einen Thread, spätere Läufe antworten darin',
        skip: 'holidays:de, oder holidays:de-by für eine Region: kein Post an ihren Feiertagen',
        ping: 'Nur für Zeitplan-Admins: die Rollen oder Personen, die jeder Post erwähnt, z. B. @on-call',
      },
      'schedule list': {
        description: 'Listet die Zeitpläne mit nächstem und letztem Lauf',
        page: 'Seite einer langen Liste, ab 1',
      },
      'schedule history': {
        description: 'Die letzten Läufe eines Zeitplans: wann, Ergebnis, Dauer und die gepostete Nachricht',
      },
      'schedule remove': { description: 'Entfernt einen Zeitplan' },
      'schedule pause': { description: 'Pausiert einen Zeitplan, bis er fortgesetzt wird' },
      'schedule resume': { description: 'Setzt einen pausierten Zeitplan fort' },
      'schedule skip': { description: 'Überspringt den nächsten Lauf eines Zeitplans' },
      'schedule unskip': { description: 'Nimmt ein {{skip}} zurück: der Lauf findet statt' },
      'schedule run': { description: 'Postet einen Zeitplan jetzt, außerhalb seiner Zeiten' },
      'schedule audit': {
        description: 'Wer Zeitpläne angelegt, pausiert, fortgesetzt oder entfernt hat, und wie (Admins)',
      },
      settings: {
        description:
          'Deine Zeitzone, Einheiten, Sprache und dein Heimatort; die eines Kanals mit scope:channel',
        tz: 'Deine Zeitzone, IANA: Europe/Berlin (default löscht sie)',
        units: 'metric, imperial oder standard für {{weather}} und {{forecast}} (default löscht sie)',
        language: 'en-GB, de oder fr (default löscht sie)',
        home: 'Dein Heimatort, für {{weather}} und {{forecast}} ohne Stadt: "Paris,FR" (default löscht ihn)',
        scope: 'me (Standard), oder channel: die Werte dieses Kanals, gesetzt von Zeitplan-Admins',
      },
      help: {
        description: 'Listet die Befehle auf oder erklärt einen',
        command: 'Ein Befehlsname, z. B. weather oder email send',
      },
    },
    fr: {
      options: {
        city: 'Nom de la ville, éventuellement avec un code pays : "Paris,FR" (par défaut : votre lieu)',
        units: 'metric (°C, m/s), imperial (°F, mph) ou standard (K, m/s)',
        speak: 'yes : aussi une courte version parlée (mp3), décomptée de votre budget {{say}}',
        id: "L'identifiant de la planification, tel que {{list}} l'affiche",
      },
      weather: { description: "La météo actuelle d'une ville" },
      forecast: { description: 'Prévisions sur 5 jours pour une ville : minimum, maximum et temps par jour' },
      geocode: {
        description: "Trouve les coordonnées d'un lieu, avec un lien vers une carte",
        query: 'Ce qu’il faut chercher : un lieu, une adresse ou un monument',
        limit: 'Nombre de résultats à afficher (1-10)',
      },
      host: {
        description: 'Ce que le scanner d’Internet sait d’une adresse IP : ports, services, vulnérabilités',
        ip: 'Une adresse IPv4 ou IPv6, par ex. 8.8.8.8',
      },
      jobs: {
        description: "Cherche des offres d'emploi dans un pays, page par page",
        what: 'Termes de recherche, par ex. "rust developer"',
        where: 'Ville, commune ou région',
        country:
          'Code pays à deux lettres : at, au, be, br, ca, ch, de, es, fr, gb, in, it, mx, nl, nz, pl, sg, us, za',
        page: 'Page de résultats, à partir de 1',
        size: 'Offres par page, de 1 à 50 (5 par défaut)',
      },
      say: {
        description: 'Lit un texte à voix haute : répond avec un mp3',
        text: 'Le texte à lire ({{limit}} caractères au plus)',
        voice: "Nom ou identifiant d'une voix ; {{voices}} les liste",
      },
      'read-aloud': {
        description: 'Lit un message à voix haute : répond avec un mp3',
        menu: 'Lire à voix haute',
        text: "Le message en mots, tel que l'adaptateur l'a lu",
      },
      voices: { description: 'Liste les voix que {{say}} peut utiliser' },
      email: { description: 'E-mail : send, status' },
      'email send': {
        description: 'Envoie un e-mail',
        to: 'Adresse du destinataire, par ex. ops@example.com',
        subject: 'Objet',
        body: 'Texte du message ; une ligne vide commence un paragraphe',
      },
      'email status': {
        description: 'Affiche un e-mail envoyé et son dernier événement de livraison',
        id: "L'identifiant renvoyé par {{send}}",
      },
      report: {
        description:
          'Synthèse statistique : sessions, utilisateurs et événements face à la période précédente',
        range: "La période jusqu'à hier : yesterday, 7d, 28d ou 90d",
      },
      schedule: {
        description: 'Planifications : add, list, history, remove, pause, resume, skip, unskip, run, audit',
      },
      'schedule add': {
        description: "Publie la réponse d'une commande dans un salon selon un horaire",
        when: 'Quand : "every weekday at 07:30", "every 2 hours" ou une expression cron (en anglais)',
        command: 'La ligne de commande, par ex. /weather Oslo units:imperial',
        to: 'Une destination configurée, ou me : un message privé pour vous (par défaut : ce salon)',
        tz: 'Fuseau IANA, par ex. Europe/Berlin (par défaut : le vôtre, sinon celui du salon)',
        only: 'new : une veille, qui ne publie que ce qui est nouveau depuis sa dernière publication',
        alert: 'Avec only:new sur /forecast : rain, snow, "below 0" ou "above 30"',
        preview: 'yes : exécute la commande une fois et montre la publication, sans publier ni ajouter',
        mode: 'edit : une seule publication, modifiée à chaque exécution (un tableau de bord)',
        thread: 'yes : la première exécution ouvre un fil, les suivantes y répondent',
        skip: 'holidays:de, ou holidays:de-by pour une région : pas de publication les jours fériés',
        ping: 'Admins des planifications seulement : les rôles ou personnes mentionnés, par ex. @on-call',
      },
      'schedule list': {
        description: 'Liste les planifications, avec leurs prochaine et dernière exécutions',
        page: "Page d'une longue liste, à partir de 1",
      },
      'schedule history': {
        description:
          "Les dernières exécutions d'une planification : quand, résultat, durée et message publié",
      },
      'schedule remove': { description: 'Supprime une planification' },
      'schedule pause': { description: "Met une planification en pause jusqu'à sa reprise" },
      'schedule resume': { description: 'Reprend une planification en pause' },
      'schedule skip': { description: "Saute la prochaine exécution d'une planification" },
      'schedule unskip': { description: 'Annule un {{skip}} : cette exécution a lieu' },
      'schedule run': { description: 'Publie une planification maintenant, hors de ses horaires' },
      'schedule audit': {
        description: 'Qui a ajouté, mis en pause, repris ou supprimé des planifications, et comment (admins)',
      },
      settings: {
        description:
          "Votre fuseau, vos unités, votre langue et votre lieu ; ceux d'un salon avec scope:channel",
        tz: 'Votre fuseau horaire, IANA : Europe/Berlin (default l’efface)',
        units: 'metric, imperial ou standard pour {{weather}} et {{forecast}} (default l’efface)',
        language: 'en-GB, de ou fr (default l’efface)',
        home: 'Votre lieu, pour {{weather}} et {{forecast}} sans ville : "Paris,FR" (default l’efface)',
        scope: 'me (par défaut), ou channel : les valeurs de ce salon, réglées par les admins',
      },
      help: {
        description: 'Liste les commandes, ou en explique une',
        command: 'Un nom de commande, par ex. weather ou email send',
      },
    },
  },
);
