// The sentences of src/errors.ts's userMessageFor and the dispatcher's own refusals.
import { defineMessages } from './define.ts';

export const errors = defineMessages(
  {
    service: {
      credentials:
        "The {{service}} service rejected herald's credentials; an operator needs to check its configuration.",
      notFound: 'The {{service}} service found nothing for that.',
      invalidRequest: 'The {{service}} service did not accept that request; check the input and try again.',
      windowQuota: "The {{service}} service's quota for this {{window}} is used up.",
      quota:
        'The {{service}} service allows herald {{limit}} calls a {{per}}, all used; the next is possible {{when}}.',
      exhausted:
        'The {{service}} service says herald’s quota is used up; it renews with the provider’s billing period, or an operator can raise the plan.',
      rateLimited: 'The {{service}} service is rate limiting herald; try again {{when}}.',
      unavailable: 'The {{service}} service is unavailable; try again {{when}}.',
      timeout: 'The {{service}} service took too long to answer; try again in a moment.',
      trouble: 'The {{service}} service is having trouble right now; try again in a moment.',
      badResponse: 'The {{service}} service sent an answer herald could not read; try again later.',
      internal:
        'The {{service}} service was not asked: herald could not send that request, and the fault has been logged.',
      notConfigured: 'The {{service}} service is not configured.',
      notConfiguredSet: 'The {{service}} service is not configured; set {{variable}}.',
    },
    window: { second: 'second', minute: 'minute', day: 'day', week: 'week', month: 'month' },
    when: {
      moment: 'in a moment',
      seconds_one: 'in {{count}} second',
      seconds_other: 'in {{count}} seconds',
      on: 'on {{date}}',
    },
    deadline: 'That took too long to answer; try again in a moment.',
    internal: 'Something went wrong while running that command; it has been logged.',
    tooQuick: 'You are sending commands too quickly; try again {{when}}.',
    shuttingDown: 'herald is shutting down; try again in a moment.',
    emptyLine: 'The command line is empty; write it as /weather Oslo.',
    needsPlace:
      '/{{command}} needs a place: type it (/{{command}} Oslo), or set your home place once with /settings home:Oslo.',
    ref: '{{sentence}} (ref {{ref}}).',
  },
  {
    de: {
      service: {
        credentials:
          'Der Dienst {{service}} hat die Zugangsdaten von herald abgelehnt; ein Betreiber muss seine Konfiguration prüfen.',
        notFound: 'Der Dienst {{service}} hat dazu nichts gefunden.',
        invalidRequest:
          'Der Dienst {{service}} hat diese Anfrage nicht angenommen; prüfe die Eingabe und versuche es erneut.',
        windowQuota:
          'Das Kontingent des Dienstes {{service}} für den laufenden Zeitraum ({{window}}) ist aufgebraucht.',
        quota:
          'Der Dienst {{service}} erlaubt herald {{limit}} Aufrufe pro {{per}}, alle verbraucht; der nächste ist {{when}} möglich.',
        exhausted:
          'Der Dienst {{service}} meldet, dass das Kontingent von herald aufgebraucht ist; es erneuert sich mit dem Abrechnungszeitraum des Anbieters, oder ein Betreiber kann den Tarif erhöhen.',
        rateLimited: 'Der Dienst {{service}} bremst herald gerade; versuche es {{when}} erneut.',
        unavailable: 'Der Dienst {{service}} ist nicht erreichbar; versuche es {{when}} erneut.',
        timeout: 'Der Dienst {{service}} hat zu lange gebraucht; versuche es gleich noch einmal.',
        trouble: 'Der Dienst {{service}} hat gerade Probleme; versuche es gleich noch einmal.',
        badResponse:
          'Der Dienst {{service}} hat eine Antwort geschickt, die herald nicht lesen konnte; versuche es später erneut.',
        internal:
          'Der Dienst {{service}} wurde nicht gefragt: herald konnte die Anfrage nicht senden, und der Fehler wurde protokolliert.',
        notConfigured: 'Der Dienst {{service}} ist nicht eingerichtet.',
        notConfiguredSet: 'Der Dienst {{service}} ist nicht eingerichtet; setze {{variable}}.',
      },
      window: { second: 'Sekunde', minute: 'Minute', day: 'Tag', week: 'Woche', month: 'Monat' },
      when: {
        moment: 'gleich',
        seconds_one: 'in {{count}} Sekunde',
        seconds_other: 'in {{count}} Sekunden',
        on: 'am {{date}}',
      },
      deadline: 'Die Antwort hat zu lange gedauert; versuche es gleich noch einmal.',
      internal: 'Beim Ausführen dieses Befehls ist etwas schiefgegangen; der Fehler wurde protokolliert.',
      tooQuick: 'Du sendest Befehle zu schnell; versuche es {{when}} erneut.',
      shuttingDown: 'herald wird gerade beendet; versuche es gleich noch einmal.',
      emptyLine: 'Die Befehlszeile ist leer; schreibe sie etwa als /weather Oslo.',
      needsPlace:
        '/{{command}} braucht einen Ort: gib ihn an (/{{command}} Oslo) oder lege einmal deinen Heimatort mit /settings home:Oslo fest.',
      ref: '{{sentence}} (Ref. {{ref}}).',
    },
    fr: {
      service: {
        credentials:
          'Le service {{service}} a refusé les identifiants de herald ; un opérateur doit vérifier sa configuration.',
        notFound: "Le service {{service}} n'a rien trouvé pour cela.",
        invalidRequest:
          "Le service {{service}} n'a pas accepté cette requête ; vérifiez la saisie et réessayez.",
        windowQuota: 'Le quota du service {{service}} pour cette période ({{window}}) est épuisé.',
        quota:
          'Le service {{service}} autorise herald à {{limit}} appels par {{per}}, tous utilisés ; le prochain sera possible {{when}}.',
        exhausted:
          "Le service {{service}} indique que le quota de herald est épuisé ; il se renouvelle avec la période de facturation du fournisseur, ou un opérateur peut augmenter l'offre.",
        rateLimited: 'Le service {{service}} limite le débit de herald ; réessayez {{when}}.',
        unavailable: 'Le service {{service}} est indisponible ; réessayez {{when}}.',
        timeout: 'Le service {{service}} a mis trop de temps à répondre ; réessayez dans un instant.',
        trouble: 'Le service {{service}} rencontre des difficultés ; réessayez dans un instant.',
        badResponse:
          "Le service {{service}} a envoyé une réponse que herald n'a pas pu lire ; réessayez plus tard.",
        internal:
          "Le service {{service}} n'a pas été interrogé : herald n'a pas pu envoyer la requête, et l'erreur a été journalisée.",
        notConfigured: "Le service {{service}} n'est pas configuré.",
        notConfiguredSet: "Le service {{service}} n'est pas configuré ; définissez {{variable}}.",
      },
      window: { second: 'seconde', minute: 'minute', day: 'jour', week: 'semaine', month: 'mois' },
      when: {
        moment: 'dans un instant',
        seconds_one: 'dans {{count}} seconde',
        seconds_other: 'dans {{count}} secondes',
        on: 'le {{date}}',
      },
      deadline: 'La réponse a pris trop de temps ; réessayez dans un instant.',
      internal: "Une erreur s'est produite pendant l'exécution de cette commande ; elle a été journalisée.",
      tooQuick: 'Vous envoyez des commandes trop vite ; réessayez {{when}}.',
      shuttingDown: "herald est en cours d'arrêt ; réessayez dans un instant.",
      emptyLine: 'La ligne de commande est vide ; écrivez-la par exemple /weather Oslo.',
      needsPlace:
        "/{{command}} a besoin d'un lieu : indiquez-le (/{{command}} Oslo), ou définissez une fois votre lieu habituel avec /settings home:Oslo.",
      ref: '{{sentence}} (réf. {{ref}}).',
    },
  },
);
