import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHelpCommand } from '../../commands/help.ts';
import { describeType, optionDetails, syntaxHint, usageLine } from '../../commands/help-format.ts';
import { defineCommand, describeOptions, type Command } from '../../src/core/command.ts';
import { createContext, DISCORD_MEMBER, expectWellFormed, invoke, SLACK_MEMBER } from './context.ts';

const ping = defineCommand({
  name: 'ping',
  description: 'Check that herald answers',
  options: z.object({}),
  needs: [],
  handler: async () => ({ text: 'pong' }),
});

const weatherLike = defineCommand({
  name: 'weather',
  description: 'Current weather for a city',
  options: z.object({ city: z.string().describe('City') }),
  needs: [],
  handler: async () => ({ text: 'sunny' }),
});

const search = defineCommand({
  name: 'search',
  description: 'Search something, page by page',
  options: z.object({
    what: z.string().trim().min(1).max(100).describe('Search terms'),
    sort: z.enum(['date', 'salary']).default('date').describe('Order of results'),
    page: z.number().int().min(1).max(1000).default(1).describe('Page of results'),
    exact: z.boolean().optional().describe('Match the words exactly'),
  }),
  positional: ['what'],
  needs: [],
  examples: ['/search rust', '/search what:"rust developer" page:2'],
  handler: async () => ({ text: 'results' }),
});

const groupSend = defineCommand({
  name: 'mail send',
  description: 'Send mail',
  options: z.object({ to: z.string().describe('Recipient') }),
  positional: ['to'],
  needs: [],
  handler: async () => ({ text: 'sent' }),
});

const groupStatus = defineCommand({
  name: 'mail status',
  description: 'Show mail',
  options: z.object({ id: z.string().describe('Mail id') }),
  positional: ['id'],
  needs: [],
  handler: async () => ({ text: 'status' }),
});

function registry(): Command[] {
  const commands: Command[] = [ping, search, groupSend, groupStatus];
  commands.push(createHelpCommand(() => commands, { perUserPerMinute: 10 }));
  return commands;
}

describe('/help', () => {
  it('lists every command with its usage and description, generated from the definitions', async () => {
    const help = registry().at(-1)!;
    const reply = await invoke(help, {}, createContext({ actor: SLACK_MEMBER }));
    expectWellFormed(reply);
    expect(reply.ephemeral).toBe(true);
    const embed = reply.embeds![0]!;
    expect(embed.description!.split('\n')).toEqual([
      '/ping — Check that herald answers',
      '/search what [sort] [page] [exact] — Search something, page by page',
      '/mail send to — Send mail',
      '/mail status id — Show mail',
      '/help [command] — List the commands, or explain one',
    ]);
    expect(embed.footer).toBe(
      '/help <command> explains one · each person may run 10 commands a minute · Option names (to:, tz:, units:…) and the words of when (every weekday at 07:30) are typed in English in every language.',
    );
    // "/mail send" and "/mail status" are one command with two subcommands.
    expect(reply.text).toBe('4 commands: /ping, /search, /mail, /help. /help <command> explains one.');
  });

  it('shows the console operator, who has no per-user limit, none', async () => {
    const help = registry().at(-1)!;
    const reply = await invoke(help, {}, createContext());
    expect(reply.embeds![0]!.footer).toBe(
      '/help <command> explains one · Option names (to:, tz:, units:…) and the words of when (every weekday at 07:30) are typed in English in every language.',
    );
  });

  it('explains one command: options with types, required or not, choices, defaults and examples', async () => {
    const help = registry().at(-1)!;
    const reply = await invoke(help, { command: '/search' }, createContext());
    const embed = reply.embeds![0]!;
    expect(embed.title).toBe('/search what [sort] [page] [exact]');
    expect(embed.description).toBe(
      'Search something, page by page\n\nExamples:\n/search rust\n/search what:"rust developer" page:2',
    );
    expect(embed.fields).toEqual([
      { name: 'what', value: 'Search terms\n(text, at most 100 characters, required)' },
      { name: 'sort', value: 'Order of results\n(one of date, salary, optional, default date)' },
      { name: 'page', value: 'Page of results\n(whole number 1–1,000, optional, default 1)' },
      { name: 'exact', value: 'Match the words exactly\n(true or false, optional)' },
    ]);
    expect(embed.footer).toContain('name:value');
    expect(embed.footer).toContain('e.g. sort:"two words"');
    expect(embed.footer).toContain('what can also be given as plain words');
  });

  it('explains every subcommand of a group', async () => {
    const help = registry().at(-1)!;
    const reply = await invoke(help, { command: 'MAIL' }, createContext());
    expect(reply.embeds!.map((e) => e.title)).toEqual(['/mail send to', '/mail status id']);
    const one = await invoke(help, { command: 'mail  status' }, createContext());
    expect(one.embeds!.map((e) => e.title)).toEqual(['/mail status id']);
  });

  it('answers an unknown command with a warning and the list of commands', async () => {
    const help = registry().at(-1)!;
    const reply = await invoke(help, { command: 'weathr' }, createContext());
    expectWellFormed(reply);
    expect(reply.embeds![0]!.color).toBe('warning');
    expect(reply.embeds![0]!.description).toContain('/ping, /search, /mail send, /mail status, /help');
    expect(reply.text).toBe('There is no command “weathr”; /help lists them all.');
    expect(reply.outcome).toBe('not-found');
  });

  it('sees commands added to the list after it was built', async () => {
    const commands: Command[] = [];
    const help = createHelpCommand(() => commands);
    commands.push(ping, help);
    const reply = await invoke(help, {}, createContext());
    expect(reply.text).toBe('2 commands: /ping, /help. /help <command> explains one.');
    expect(reply.embeds![0]!.footer).toBe(
      '/help <command> explains one · Option names (to:, tz:, units:…) and the words of when (every weekday at 07:30) are typed in English in every language.',
    );
  });

  it('completes command names from what has been typed', async () => {
    const help = registry().at(-1)!;
    const choices = await help.autocomplete.command!('/ma', createContext());
    expect(choices).toEqual([
      { name: '/mail send', value: 'mail send' },
      { name: '/mail status', value: 'mail status' },
    ]);
  });
});

describe('help text', () => {
  it('writes bracketed usage for optional options', () => {
    expect(usageLine(search)).toBe('/search what [sort] [page] [exact]');
    expect(usageLine(ping)).toBe('/ping');
  });

  it('describes option types in words', () => {
    const [what, sort, page, exact] = describeOptions(search.options);
    expect(describeType(what!)).toBe('text, at most 100 characters, required');
    expect(describeType(sort!)).toBe('one of date, salary, optional, default date');
    expect(describeType(page!)).toBe('whole number 1–1,000, optional, default 1');
    expect(describeType(exact!)).toBe('true or false, optional');
    expect(optionDetails(ping)).toEqual([]);
    expect(syntaxHint(ping)).toBeUndefined();
  });

  it('says an exact length once ("2 characters", not "2–2 characters")', () => {
    const [code, word] = describeOptions(
      z.object({
        code: z.string().length(2).optional().describe('Country code'),
        word: z.string().min(2).max(8).describe('A word'),
      }),
    );
    expect(describeType(code!)).toBe('text, 2 characters, optional');
    expect(describeType(word!)).toBe('text, 2–8 characters, required');
  });
});

describe('/help in the reader’s language', () => {
  it('explains a command in German and says that option names and when stay English', async () => {
    const help: Command = createHelpCommand(() => [weatherLike, help]);
    const reply = await invoke(help, { command: 'weather' }, createContext({ language: 'de' }));
    const embed = reply.embeds![0]!;
    expect(embed.description).toBe('Aktuelles Wetter für eine Stadt');
    expect(embed.footer).toContain('werden in jeder Sprache auf Englisch geschrieben');
  });

  it('lists the commands in French, with French descriptions', async () => {
    const help: Command = createHelpCommand(() => [weatherLike, help]);
    const reply = await invoke(help, {}, createContext({ language: 'fr' }));
    expect(reply.text).toBe('2 commandes : /weather, /help. /help <commande> en explique une.');
    expect(reply.embeds![0]!.description).toContain("/weather city — La météo actuelle d'une ville");
    expect(reply.embeds![0]!.footer).toContain('en anglais dans toutes les langues');
  });

  it('names the commands and options on Discord as its command list shows them in German', async () => {
    const help: Command = createHelpCommand(() => [weatherLike, groupSend, help]);
    const ctx = createContext({ language: 'de', actor: DISCORD_MEMBER });
    const reply = await invoke(help, {}, ctx);
    expect(reply.text).toBe('3 Befehle: /wetter, /mail, /hilfe. /hilfe <Befehl> erklärt einen.');
    expect(reply.embeds![0]!.description).toContain('/wetter stadt — Aktuelles Wetter für eine Stadt');
    expect(reply.embeds![0]!.description).toContain('/hilfe [befehl] — Listet die Befehle auf');
    // On Discord the option names are German; the words of when and a schedule's line are not.
    expect(reply.embeds![0]!.footer).toContain('Die Wörter von wann (every weekday at 07:30)');
    // The reader may ask by the name they see.
    const one = await invoke(help, { command: 'wetter' }, ctx);
    expect(one.embeds![0]!.title).toBe('/wetter stadt');
    expect(one.embeds![0]!.fields![0]!.name).toBe('stadt');
  });

  it('names them in French on Discord, and in English on Slack whatever the language', async () => {
    const help: Command = createHelpCommand(() => [weatherLike, help]);
    const discord = await invoke(help, {}, createContext({ language: 'fr', actor: DISCORD_MEMBER }));
    expect(discord.text).toBe('2 commandes : /météo, /aide. /aide <commande> en explique une.');
    const slack = await invoke(help, {}, createContext({ language: 'fr', actor: SLACK_MEMBER }));
    expect(slack.text).toBe('2 commandes : /weather, /help. /help <commande> en explique une.');
    expect(slack.embeds![0]!.description).toContain("/weather city — La météo actuelle d'une ville");
  });
});
