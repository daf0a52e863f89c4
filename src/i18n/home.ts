// Slack's App Home tab (commands/schedule-home.ts, adapters/slack/home.ts). Its Run now and Remove
// buttons and its New schedule button are the schedule area's words (schedule:actions, schedule:form).
import { defineMessages } from './define.ts';

export const home = defineMessages(
  {
    title: { mine: 'My schedules', workspace: 'Schedules in this workspace' },
    state: { active: 'State: active', paused: 'State: paused' },
    pause: 'Pause',
    resume: 'Resume',
    cancel: 'Cancel',
    confirmRemove: 'Remove schedule {{id}} ({{words}}, {{command}})? It will not post again.',
    empty:
      'No schedules yet: {{button}} opens the form, or type /schedule add "every weekday at 07:30" /weather Oslo.',
    workspace_one: '{{count}} schedule in this workspace; as a schedule admin you see everyone’s.',
    workspace_other: '{{count}} schedules in this workspace; as a schedule admin you see everyone’s.',
    mine_one: '{{count}} schedule you added.',
    mine_other: '{{count}} schedules you added.',
    more: '{{n}} more not shown here; {{/schedule list}} shows them all.',
    privateChannels:
      'A schedule that posts into a private channel is listed in that channel ({{/schedule list}}).',
    unreadable: 'That button no longer works; open the Home tab again.',
  },
  {
    de: {
      title: { mine: 'Meine Zeitpläne', workspace: 'Zeitpläne in diesem Workspace' },
      state: { active: 'Status: aktiv', paused: 'Status: pausiert' },
      pause: 'Pausieren',
      resume: 'Fortsetzen',
      cancel: 'Abbrechen',
      confirmRemove: 'Zeitplan {{id}} ({{words}}, {{command}}) entfernen? Er postet danach nichts mehr.',
      empty:
        'Noch keine Zeitpläne: {{button}} öffnet das Formular, oder tippe /schedule add "every weekday at 07:30" /weather Oslo.',
      workspace_one: '{{count}} Zeitplan in diesem Workspace; als Zeitplan-Admin siehst du alle.',
      workspace_other: '{{count}} Zeitpläne in diesem Workspace; als Zeitplan-Admin siehst du alle.',
      mine_one: 'Du hast {{count}} Zeitplan angelegt.',
      mine_other: 'Du hast {{count}} Zeitpläne angelegt.',
      more: '{{n}} weitere sind hier nicht aufgeführt; {{/schedule list}} zeigt alle.',
      privateChannels:
        'Ein Zeitplan, der in einen privaten Kanal postet, wird in diesem Kanal aufgeführt ({{/schedule list}}).',
      unreadable: 'Diese Schaltfläche funktioniert nicht mehr; öffne den Home-Tab erneut.',
    },
    fr: {
      title: { mine: 'Mes planifications', workspace: 'Planifications de cet espace de travail' },
      state: { active: 'État : active', paused: 'État : suspendue' },
      pause: 'Suspendre',
      resume: 'Reprendre',
      cancel: 'Annuler',
      confirmRemove:
        'Supprimer la planification {{id}} ({{words}}, {{command}}) ? Elle ne publiera plus rien.',
      empty:
        'Aucune planification pour l’instant : {{button}} ouvre le formulaire, ou tapez /schedule add "every weekday at 07:30" /weather Oslo.',
      workspace_one:
        '{{count}} planification dans cet espace de travail ; en tant qu’admin des planifications, vous voyez celles de tout le monde.',
      workspace_other:
        '{{count}} planifications dans cet espace de travail ; en tant qu’admin des planifications, vous voyez celles de tout le monde.',
      mine_one: 'Vous avez ajouté {{count}} planification.',
      mine_other: 'Vous avez ajouté {{count}} planifications.',
      more: '{{n}} autres ne sont pas affichées ici ; {{/schedule list}} les montre toutes.',
      privateChannels:
        'Une planification qui publie dans un canal privé est listée dans ce canal ({{/schedule list}}).',
      unreadable: 'Ce bouton ne fonctionne plus ; rouvrez l’onglet Accueil.',
    },
  },
);
