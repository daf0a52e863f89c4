// The allow lists' refusals (commands/access.ts): /schedule's managing, /email and /host.
import { defineMessages } from './define.ts';

export const access = defineMessages(
  {
    denied:
      'You are not allowed to {{action}}: ask an admin to add you (user id {{user}}) to {{users}}{{roles}}.',
    nobody:
      'Nobody but the operator may {{action}} yet: ask an admin to add you (user id {{user}}) to {{users}}{{roles}}.',
    roleHint: ' or one of your roles to {{variable}}',
    actions: { schedules: 'manage schedules', email: 'use {{/email}}', host: 'use {{/host}}' },
  },
  {
    de: {
      denied:
        'Dir fehlt die Berechtigung, {{action}}: bitte einen Admin, dich (Nutzer-ID {{user}}) zu {{users}} hinzuzufügen{{roles}}.',
      nobody:
        'Noch hat niemand außer dem Betreiber die Berechtigung, {{action}}: bitte einen Admin, dich (Nutzer-ID {{user}}) zu {{users}} hinzuzufügen{{roles}}.',
      roleHint: ' oder eine deiner Rollen zu {{variable}}',
      actions: {
        schedules: 'Zeitpläne zu verwalten',
        email: '{{/email}} zu nutzen',
        host: '{{/host}} zu nutzen',
      },
    },
    fr: {
      denied:
        "Vous n'êtes pas autorisé à {{action}} : demandez à un administrateur de vous ajouter (identifiant {{user}}) à {{users}}{{roles}}.",
      nobody:
        "Personne d'autre que l'opérateur n'est encore autorisé à {{action}} : demandez à un administrateur de vous ajouter (identifiant {{user}}) à {{users}}{{roles}}.",
      roleHint: ' ou un de vos rôles à {{variable}}',
      actions: {
        schedules: 'gérer les planifications',
        email: 'utiliser {{/email}}',
        host: 'utiliser {{/host}}',
      },
    },
  },
);
