// Words every part of herald shares: the services' names, and the adapters' and forms' own
// sentences and button labels.
import { defineMessages } from './define.ts';

export const common = defineMessages(
  {
    services: {
      email: 'email',
      analytics: 'analytics',
      weather: 'weather',
      geocoding: 'geocoding',
      speech: 'speech',
      hostscan: 'host intelligence',
      webhook: 'webhook',
      jobSearch: 'job search',
    },
    andMore: '{{list}} and {{n}} more',
    expiredButton: 'This button has expired; run the command again.',
    unreadableButton: 'That button no longer works; run the command again.',
    expiredForm: 'This form is no longer known here; run the command again.',
    lostFormChannel: 'This form no longer knows where it was opened; run the command again.',
    editAgain: 'Edit and send again',
    notAvailable: 'not available',
    defaultValue: '(default: {{value}})',
  },
  {
    de: {
      services: {
        email: 'E-Mail',
        analytics: 'Analyse',
        weather: 'Wetter',
        geocoding: 'Geokodierung',
        speech: 'Sprachausgabe',
        hostscan: 'Host-Analyse',
        webhook: 'Webhook-Zustellung',
        jobSearch: 'Jobsuche',
      },
      andMore: '{{list}} und {{n}} weitere',
      expiredButton: 'Diese Schaltfläche ist abgelaufen; führe den Befehl erneut aus.',
      unreadableButton: 'Diese Schaltfläche funktioniert nicht mehr; führe den Befehl erneut aus.',
      expiredForm: 'Dieses Formular ist hier nicht mehr bekannt; führe den Befehl erneut aus.',
      lostFormChannel: 'Dieses Formular weiß nicht mehr, wo es geöffnet wurde; führe den Befehl erneut aus.',
      editAgain: 'Bearbeiten und erneut senden',
      notAvailable: 'nicht verfügbar',
      defaultValue: '(Standard: {{value}})',
    },
    fr: {
      services: {
        email: 'e-mail',
        analytics: 'statistiques',
        weather: 'météo',
        geocoding: 'géocodage',
        speech: 'synthèse vocale',
        hostscan: "analyse d'hôtes",
        webhook: 'livraison par webhook',
        jobSearch: "recherche d'emploi",
      },
      andMore: '{{list}} et {{n}} de plus',
      expiredButton: 'Ce bouton a expiré ; relancez la commande.',
      unreadableButton: 'Ce bouton ne fonctionne plus ; relancez la commande.',
      expiredForm: "Ce formulaire n'est plus connu ici ; relancez la commande.",
      lostFormChannel: 'Ce formulaire ne sait plus où il a été ouvert ; relancez la commande.',
      editAgain: 'Modifier et renvoyer',
      notAvailable: 'non disponible',
      defaultValue: '(par défaut : {{value}})',
    },
  },
);
