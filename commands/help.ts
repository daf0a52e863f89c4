// /help [command]: generated from the command definitions, so it cannot drift from them. It gets
// the list through a function because it is itself part of that list.
import { z } from 'zod';
import { defineCommand, type Command } from '../src/core/command.ts';
import type { Reply } from '../src/core/reply.ts';
import { plural, quote } from './format.ts';
import { optionDetails, syntaxHint, usageLine } from './help-format.ts';
import { DISCORD_LIMITS } from '../src/domain/discord.ts';

interface HelpCommandOptions {
  /** RATE_LIMIT_PER_MINUTE, shown in the overview. */
  perUserPerMinute?: number;
}

function detail(commands: readonly Command[]): Reply {
  const [first] = commands;
  return {
    text: commands.map((c) => `${usageLine(c)}: ${c.description}`).join('; '),
    ephemeral: true,
    embeds: commands.map((c) => {
      const examples = c.examples.length > 0 ? `\n\nExamples:\n${c.examples.join('\n')}` : '';
      const hint = syntaxHint(c);
      return {
        title: usageLine(c),
        description: `${c.description}${examples}`,
        color: 'info' as const,
        fields: optionDetails(c).map((o) => ({ name: o.name, value: `${o.description}\n(${o.type})` })),
        ...(hint && c === first ? { footer: hint } : {}),
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
      const commands = getCommands();
      if (input.command !== undefined) {
        const wanted = input.command.replace(/^\//, '').replace(/\s+/g, ' ').toLowerCase();
        const exact = commands.filter((c) => c.name === wanted);
        const group = commands.filter((c) => c.name.startsWith(`${wanted} `));
        const found = exact.length > 0 ? exact : group;
        if (found.length > 0) return Promise.resolve(detail(found));
        return Promise.resolve({
          text: `There is no command ${quote(input.command, 40)}; /help lists them all.`,
          outcome: 'not-found',
          ephemeral: true,
          embeds: [
            {
              title: 'No such command',
              description: `herald has no command ${quote(input.command, 40)}. The commands are: ${commands.map((c) => `/${c.name}`).join(', ')}.`,
              color: 'warning',
            },
          ],
        });
      }
      // The local operator has no per-user limit; saying one would mislead.
      const limit = ctx.actor.isOperator ? undefined : opts.perUserPerMinute;
      // "/email send" and "/email status" are one command with two subcommands.
      const names = [...new Set(commands.map((c) => c.onMessage ?? `/${c.name.split(' ')[0]!}`))];
      return Promise.resolve({
        text: `${plural(names.length, 'command')}: ${names.join(', ')}. /help <command> explains one.`,
        ephemeral: true,
        embeds: [
          {
            title: 'herald commands',
            description: commands.map((c) => `${usageLine(c)} — ${c.description}`).join('\n'),
            color: 'info',
            footer: [
              '/help <command> explains one',
              limit === undefined ? undefined : `each person may run ${plural(limit, 'command')} a minute`,
            ]
              .filter(Boolean)
              .join(' · '),
          },
        ],
      });
    },
  });
}
