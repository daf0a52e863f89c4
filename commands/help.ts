// /help [command]: generated from the command definitions, so it cannot drift from them. It gets
// the list through a function because it is itself part of that list.
import { z } from 'zod';
import { defineCommand, type Command } from '../src/core/command.ts';
import type { Reply } from '../src/core/reply.ts';
import { formatNumber, quote } from './format.ts';
import { optionDetails, syntaxHint, usageLine } from './help-format.ts';
import { DISCORD_LIMITS } from '../src/domain/discord.ts';
import type { Language } from '../src/domain/preferences.ts';
import { commandDescription } from '../src/i18n/command-text.ts';
import type { Translate } from '../src/i18n/translate.ts';

interface HelpCommandOptions {
  /** RATE_LIMIT_PER_MINUTE, shown in the overview. */
  perUserPerMinute?: number;
}

/** What the reader needs to write a command: its language's words, and `t` for help's own. */
interface Reader {
  t: Translate;
  language: Language;
}

const described = (c: Command, { language }: Reader) => commandDescription(language, c.name, c.description);

function detail(commands: readonly Command[], reader: Reader): Reply {
  const { t, language } = reader;
  const [first] = commands;
  return {
    text: commands.map((c) => `${usageLine(c, t)}: ${described(c, reader)}`).join('; '),
    ephemeral: true,
    embeds: commands.map((c) => {
      const examples = c.examples.length > 0 ? `\n\n${t('help:examples')}\n${c.examples.join('\n')}` : '';
      // Options are typed in English whatever the language: the first embed says so.
      const hint = [syntaxHint(c, t), t('help:english')].filter(Boolean).join(' ');
      return {
        title: usageLine(c, t),
        description: `${described(c, reader)}${examples}`,
        color: 'info' as const,
        fields: optionDetails(c, t, language).map((o) => ({
          name: o.name,
          value: `${o.description}\n(${o.type})`,
        })),
        ...(c === first ? { footer: hint } : {}),
      };
    }),
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
    autocomplete: {
      command: (partial) => {
        const lower = partial.trim().replace(/^\//, '').toLowerCase();
        const names = getCommands()
          .map((c) => c.name)
          .filter((n) => n.startsWith(lower));
        return Promise.resolve(
          names.slice(0, DISCORD_LIMITS.autocompleteChoices).map((n) => ({ name: `/${n}`, value: n })),
        );
      },
    },
    examples: ['/help', '/help jobs', '/help email'],
    handler(input, ctx) {
      const { t } = ctx;
      const reader: Reader = { t, language: ctx.preferences.language };
      const commands = getCommands();
      if (input.command !== undefined) {
        const wanted = input.command.replace(/^\//, '').replace(/\s+/g, ' ').toLowerCase();
        const exact = commands.filter((c) => c.name === wanted);
        const group = commands.filter((c) => c.name.startsWith(`${wanted} `));
        const found = exact.length > 0 ? exact : group;
        if (found.length > 0) return Promise.resolve(detail(found, reader));
        const name = quote(input.command, 40);
        const list = commands.map((c) => `/${c.name}`).join(', ');
        return Promise.resolve({
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
        });
      }
      // The local operator has no per-user limit; saying one would mislead.
      const limit = ctx.actor.isOperator ? undefined : opts.perUserPerMinute;
      // "/email send" and "/email status" are one command with two subcommands.
      const names = [...new Set(commands.map((c) => c.onMessage ?? `/${c.name.split(' ')[0]!}`))];
      const count = (n: number) => ({ count: n, n: formatNumber(n, 0, ctx.locale) });
      return Promise.resolve({
        text: t('help:overview', { ...count(names.length), list: names.join(', ') }),
        ephemeral: true,
        embeds: [
          {
            title: t('help:title'),
            description: commands.map((c) => `${usageLine(c, t)} — ${described(c, reader)}`).join('\n'),
            color: 'info',
            footer: [
              t('help:explainsOne'),
              limit === undefined ? undefined : t('help:perMinute', count(limit)),
              t('help:english'),
            ]
              .filter(Boolean)
              .join(' · '),
          },
        ],
      });
    },
  });
}
