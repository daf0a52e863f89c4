// /help [command]: generated from the command definitions, so it cannot drift from them. It gets
// the list through a function because it is itself part of that list.
import { z } from 'zod';
import { defineCommand, type Command } from '../src/core/command.ts';
import type { Reply } from '../src/core/reply.ts';
import { formatNumber, quote } from './format.ts';
import { optionDetails, syntaxHint, usageLine } from './help-format.ts';
import { DISCORD_LIMITS } from '../src/domain/discord.ts';
import { LANGUAGES, type Language } from '../src/domain/preferences.ts';
import { commandDescription, menuName, slashName } from '../src/i18n/command-text.ts';
import type { Translate } from '../src/i18n/translate.ts';
import type { Actor } from '../src/core/actor.ts';

interface HelpCommandOptions {
  /** RATE_LIMIT_PER_MINUTE, shown in the overview. */
  perUserPerMinute?: number;
}

/**
 * What the reader needs to write a command: its language's words, `t` for help's own, and where
 * they read it: Discord's command list shows the names in their language, Slack and the console
 * have the English names alone.
 */
interface Reader {
  t: Translate;
  language: Language;
  platform: Actor['platform'];
}

const described = (c: Command, reader: Reader) =>
  commandDescription(reader.language, c.name, c.description, reader);

/** What stays English for this reader, said once under the first explanation and the overview. */
const englishNote = ({ t, platform }: Reader) =>
  t(platform === 'discord' ? 'help:englishDiscord' : 'help:english');

/** How the reader finds a top-level command or a message command ("/zeitplan", "Vorlesen"). */
function listedName(c: Command, reader: Reader): string {
  if (c.onMessage === undefined) return slashName(c.name.split(' ')[0]!, reader);
  return reader.platform === 'discord' ? menuName(reader.language, c.name, c.onMessage) : c.onMessage;
}

/** The commands `wanted` names, by their English name or the one the reader sees: one, or a group's. */
function lookUp(commands: readonly Command[], wanted: string, reader: Reader): readonly Command[] {
  const names = (c: Command) => [c.name, slashName(c.name, reader).slice(1)];
  const exact = commands.filter((c) => names(c).includes(wanted));
  return exact.length > 0 ? exact : commands.filter((c) => names(c).some((n) => n.startsWith(`${wanted} `)));
}

function detail(commands: readonly Command[], reader: Reader): Reply {
  const { t, language } = reader;
  const [first] = commands;
  const usage = (c: Command) => usageLine(c, t, reader);
  return {
    text: commands.map((c) => `${usage(c)}: ${described(c, reader)}`).join('; '),
    ephemeral: true,
    embeds: commands.map((c) => {
      const examples = c.examples.length > 0 ? `\n\n${t('help:examples')}\n${c.examples.join('\n')}` : '';
      // What is typed in English whatever the language: the first embed says so.
      const hint = [syntaxHint(c, t), englishNote(reader)].filter(Boolean).join(' ');
      return {
        title: usage(c),
        description: `${described(c, reader)}${examples}`,
        color: 'info' as const,
        fields: optionDetails(c, t, language, reader.platform).map((o) => ({
          name: o.name,
          value: `${o.description}\n(${o.type})`,
        })),
        ...(c === first ? { footer: hint } : {}),
      };
    }),
  };
}

/** The commands whose name starts with `partial`, typed in any language herald writes ("zeitplan"). */
function completeName(commands: readonly Command[], partial: string) {
  const lower = partial.trim().replace(/^\//, '').toLowerCase();
  // Discord's list in every language herald writes, English (en-GB) among them.
  const seen = (n: string) =>
    LANGUAGES.map((language) => slashName(n, { language, platform: 'discord' }).slice(1));
  const names = commands.map((c) => c.name).filter((n) => seen(n).some((s) => s.startsWith(lower)));
  // The value is the English name, which /help reads whatever the reader's language.
  return names.slice(0, DISCORD_LIMITS.autocompleteChoices).map((n) => ({ name: `/${n}`, value: n }));
}

function noSuchCommand(commands: readonly Command[], name: string, reader: Reader): Reply {
  const { t } = reader;
  const list = commands.map((c) => slashName(c.name, reader)).join(', ');
  return {
    text: t('help:noCommand', { name }),
    outcome: 'not-found',
    ephemeral: true,
    embeds: [
      {
        title: t('help:noCommandTitle'),
        description: t('help:noCommandDescription', { name, list }),
        color: 'warning',
      },
    ],
  };
}

export function createHelpCommand(getCommands: () => readonly Command[], opts: HelpCommandOptions = {}) {
  return defineCommand({
    name: 'help',
    description: 'List the commands, or explain one',
    options: z.object({
      command: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .optional()
        .describe('A command name, e.g. weather or email send'),
    }),
    positional: ['command'],
    needs: [],
    ephemeral: true,
    autocomplete: { command: (partial) => Promise.resolve(completeName(getCommands(), partial)) },
    examples: ['/help', '/help jobs', '/help email'],
    handler(input, ctx) {
      const { t } = ctx;
      const reader: Reader = { t, language: ctx.preferences.language, platform: ctx.actor.platform };
      const commands = getCommands();
      if (input.command !== undefined) {
        const wanted = input.command.replace(/^\//, '').replace(/\s+/g, ' ').toLowerCase();
        const found = lookUp(commands, wanted, reader);
        if (found.length > 0) return Promise.resolve(detail(found, reader));
        return Promise.resolve(noSuchCommand(commands, quote(input.command, 40), reader));
      }
      // The local operator has no per-user limit; saying one would mislead.
      const limit = ctx.actor.isOperator ? undefined : opts.perUserPerMinute;
      // "/email send" and "/email status" are one command with two subcommands.
      const names = [...new Set(commands.map((c) => listedName(c, reader)))];
      const count = (n: number) => ({ count: n, n: formatNumber(n, 0, ctx.locale) });
      return Promise.resolve({
        text: t('help:overview', { ...count(names.length), list: names.join(', ') }),
        ephemeral: true,
        embeds: [
          {
            title: t('help:title'),
            description: commands
              .map((c) => `${usageLine(c, t, reader)} — ${described(c, reader)}`)
              .join('\n'),
            color: 'info',
            footer: [
              t('help:explainsOne'),
              limit === undefined ? undefined : t('help:perMinute', count(limit)),
              englishNote(reader),
            ]
              .filter(Boolean)
              .join(' · '),
          },
        ],
      });
    },
  });
}
