// /email send and /email status (commands/email-send.ts, email-status.ts, email-format.ts).
import { defineMessages } from './define.ts';

export const email = defineMessages(
  {
    forbiddenDomain: 'herald may only send email to addresses at {{domains}}.',
    sent: {
      text: 'Email sent to {{to}} (id {{id}}).',
      title: 'Email sent',
      footer: 'Follow its delivery with {{/email status}} {{id}}',
    },
    fields: {
      to: 'To',
      subject: 'Subject',
      id: 'Id',
      lastEvent: 'Last event',
      created: 'Created',
      from: 'From',
    },
    notFound: {
      text: 'No email with id {{id}} was found.',
      title: 'Email not found',
      description:
        'The email service has no email with id {{id}}. Check the id that {{/email send}} replied with.',
    },
    status: 'Email {{id}} to {{to}}: {{event}}.',
    noSubject: '(no subject)',
    footer: 'Id {{id}}',
    // Resend's last_event values, by their names; another is shown as it comes.
    events: {
      notSent: 'not sent yet',
      sent: 'sent',
      scheduled: 'scheduled',
      queued: 'queued',
      delivered: 'delivered',
      delivery_delayed: 'delivery delayed',
      opened: 'opened',
      clicked: 'clicked',
      bounced: 'bounced',
      failed: 'failed',
      complained: 'complained',
      suppressed: 'suppressed',
      canceled: 'canceled',
    },
  },
  {
    de: {
      forbiddenDomain: 'herald darf E-Mails nur an Adressen bei {{domains}} senden.',
      sent: {
        text: 'E-Mail an {{to}} gesendet (ID {{id}}).',
        title: 'E-Mail gesendet',
        footer: 'Verfolge die Zustellung mit {{/email status}} {{id}}',
      },
      fields: {
        to: 'An',
        subject: 'Betreff',
        id: 'ID',
        lastEvent: 'Letztes Ereignis',
        created: 'Erstellt',
        from: 'Von',
      },
      notFound: {
        text: 'Keine E-Mail mit der ID {{id}} gefunden.',
        title: 'E-Mail nicht gefunden',
        description:
          'Der E-Mail-Dienst kennt keine E-Mail mit der ID {{id}}. Prüfe die ID, mit der {{/email send}} geantwortet hat.',
      },
      status: 'E-Mail {{id}} an {{to}}: {{event}}.',
      noSubject: '(kein Betreff)',
      footer: 'ID {{id}}',
      events: {
        notSent: 'noch nicht gesendet',
        sent: 'gesendet',
        scheduled: 'geplant',
        queued: 'in der Warteschlange',
        delivered: 'zugestellt',
        delivery_delayed: 'Zustellung verzögert',
        opened: 'geöffnet',
        clicked: 'angeklickt',
        bounced: 'unzustellbar',
        failed: 'fehlgeschlagen',
        complained: 'als Spam gemeldet',
        suppressed: 'unterdrückt',
        canceled: 'abgebrochen',
      },
    },
    fr: {
      forbiddenDomain: "herald ne peut envoyer d'e-mails qu'aux adresses de {{domains}}.",
      sent: {
        text: 'E-mail envoyé à {{to}} (identifiant {{id}}).',
        title: 'E-mail envoyé',
        footer: 'Suivez sa livraison avec {{/email status}} {{id}}',
      },
      fields: {
        to: 'À',
        subject: 'Objet',
        id: 'Identifiant',
        lastEvent: 'Dernier événement',
        created: 'Créé',
        from: 'De',
      },
      notFound: {
        text: "Aucun e-mail avec l'identifiant {{id}} n'a été trouvé.",
        title: 'E-mail introuvable',
        description:
          "Le service d'e-mail n'a aucun e-mail avec l'identifiant {{id}}. Vérifiez l'identifiant renvoyé par {{/email send}}.",
      },
      status: 'E-mail {{id}} à {{to}} : {{event}}.',
      noSubject: '(sans objet)',
      footer: 'Identifiant {{id}}',
      events: {
        notSent: 'pas encore envoyé',
        sent: 'envoyé',
        scheduled: 'programmé',
        queued: "en file d'attente",
        delivered: 'remis',
        delivery_delayed: 'remise retardée',
        opened: 'ouvert',
        clicked: 'cliqué',
        bounced: 'rejeté',
        failed: 'échec',
        complained: 'signalé comme spam',
        suppressed: 'bloqué',
        canceled: 'annulé',
      },
    },
  },
);
