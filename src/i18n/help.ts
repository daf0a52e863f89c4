// /help (commands/help.ts, help-format.ts).
import { defineMessages } from './define.ts';

export const help = defineMessages(
  {
    onMenu: "{{name}} (on a message's menu)",
    examples: 'Examples:',
    noCommand: 'There is no command {{name}}; {{/help}} lists them all.',
    noCommandTitle: 'No such command',
    noCommandDescription: 'herald has no command {{name}}. The commands are: {{list}}.',
    overview_one: '{{n}} command: {{list}}. {{/help}} <command> explains one.',
    overview_other: '{{n}} commands: {{list}}. {{/help}} <command> explains one.',
    title: 'herald commands',
    explainsOne: '{{/help}} <command> explains one',
    perMinute_one: 'each person may run {{n}} command a minute',
    perMinute_other: 'each person may run {{n}} commands a minute',
    english:
      'Option names (to:, tz:, units:…) and the words of when (every weekday at 07:30) are typed in English in every language.',
    englishDiscord:
      'The words of when (every weekday at 07:30) and a scheduled command line with its options (/weather Oslo units:imperial) are typed in English in every language.',
    syntax:
      'In the console and Slack, write options as name:value, with quotes around several words, e.g. {{sample}}:"two words".',
    positional: '{{names}} can also be given as plain words, in that order.',
    type: {
      oneOf: 'one of {{values}}',
      wholeNumber: 'whole number',
      number: 'number',
      boolean: 'true or false',
      text: 'text',
      characters: 'characters',
      atLeast: 'at least {{n}}',
      atMost: 'at most {{n}}',
      required: 'required',
      optional: 'optional',
      default: 'default {{value}}',
    },
  },
  {
    de: {
      onMenu: '{{name}} (im Menü einer Nachricht)',
      examples: 'Beispiele:',
      noCommand: 'Es gibt keinen Befehl {{name}}; {{/help}} listet alle auf.',
      noCommandTitle: 'Kein solcher Befehl',
      noCommandDescription: 'herald hat keinen Befehl {{name}}. Die Befehle sind: {{list}}.',
      overview_one: '{{n}} Befehl: {{list}}. {{/help}} <Befehl> erklärt einen.',
      overview_other: '{{n}} Befehle: {{list}}. {{/help}} <Befehl> erklärt einen.',
      title: 'Befehle von herald',
      explainsOne: '{{/help}} <Befehl> erklärt einen',
      perMinute_one: 'jede Person darf {{n}} Befehl pro Minute ausführen',
      perMinute_other: 'jede Person darf {{n}} Befehle pro Minute ausführen',
      english:
        'Optionsnamen (to:, tz:, units:…) und die Wörter von when (every weekday at 07:30) werden in jeder Sprache auf Englisch geschrieben.',
      englishDiscord:
        'Die Wörter von wann (every weekday at 07:30) und die Befehlszeile eines Zeitplans samt Optionen (/weather Oslo units:imperial) werden in jeder Sprache auf Englisch geschrieben.',
      syntax:
        'In der Konsole und in Slack schreibst du Optionen als name:wert, mehrere Wörter in Anführungszeichen, z. B. {{sample}}:"zwei Wörter".',
      positional: '{{names}} kann auch als einfache Wörter angegeben werden, in dieser Reihenfolge.',
      type: {
        oneOf: 'eines von {{values}}',
        wholeNumber: 'ganze Zahl',
        number: 'Zahl',
        boolean: 'true oder false',
        text: 'Text',
        characters: 'Zeichen',
        atLeast: 'mindestens {{n}}',
        atMost: 'höchstens {{n}}',
        required: 'erforderlich',
        optional: 'optional (kann fehlen)',
        default: 'Standard {{value}}',
      },
    },
    fr: {
      onMenu: "{{name}} (dans le menu d'un message)",
      examples: 'Exemples :',
      noCommand: "Il n'y a pas de commande {{name}} ; {{/help}} les liste toutes.",
      noCommandTitle: 'Commande inconnue',
      noCommandDescription: "herald n'a pas de commande {{name}}. Les commandes sont : {{list}}.",
      overview_one: '{{n}} commande : {{list}}. {{/help}} <commande> en explique une.',
      overview_other: '{{n}} commandes : {{list}}. {{/help}} <commande> en explique une.',
      title: 'Commandes de herald',
      explainsOne: '{{/help}} <commande> en explique une',
      perMinute_one: 'chaque personne peut lancer {{n}} commande par minute',
      perMinute_other: 'chaque personne peut lancer {{n}} commandes par minute',
      english:
        'Les noms des options (to:, tz:, units:…) et les mots de when (every weekday at 07:30) s’écrivent en anglais dans toutes les langues.',
      englishDiscord:
        'Les mots de quand (every weekday at 07:30) et la ligne de commande d’une planification avec ses options (/weather Oslo units:imperial) s’écrivent en anglais dans toutes les langues.',
      syntax:
        'Dans la console et Slack, écrivez les options sous la forme nom:valeur, avec des guillemets autour de plusieurs mots, par ex. {{sample}}:"deux mots".',
      positional: '{{names}} peut aussi être donné en mots simples, dans cet ordre.',
      type: {
        oneOf: 'une valeur parmi {{values}}',
        wholeNumber: 'nombre entier',
        number: 'nombre',
        boolean: 'true ou false',
        text: 'texte',
        characters: 'caractères',
        atLeast: 'au moins {{n}}',
        atMost: 'au plus {{n}}',
        required: 'obligatoire',
        optional: 'facultatif',
        default: 'par défaut {{value}}',
      },
    },
  },
);
