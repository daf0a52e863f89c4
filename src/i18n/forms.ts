// The forms' own sentences (src/core/form.ts); each form's labels are in its command's area.
import { defineMessages } from './define.ts';

export const forms = defineMessages(
  {
    fillIn: 'Fill in the form of /{{command}}, or type it with its options: {{/help}} {{command}}.',
  },
  {
    de: {
      fillIn:
        'Fülle das Formular von /{{command}} aus oder tippe den Befehl mit seinen Optionen: {{/help}} {{command}}.',
    },
    fr: {
      fillIn:
        'Remplissez le formulaire de /{{command}}, ou tapez la commande avec ses options : {{/help}} {{command}}.',
    },
  },
);
