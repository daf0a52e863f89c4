import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UserError } from '../../src/errors.ts';
import { parseArgs, parseLine, readInput, resolveCommand, tokenize } from '../../src/core/args.ts';
import { defineCommand, type Command } from '../../src/core/command.ts';
import { createRegistry } from '../../src/core/registry.ts';

const reply = async () => ({ text: 'ok' });

const weather = defineCommand({
  name: 'weather',
  description: 'Current weather for a city',
  options: z.object({
    city: z.string().min(1).max(20).describe('City name'),
    units: z.enum(['metric', 'imperial', 'standard']).default('metric').describe('Units'),
  }),
  positional: ['city'],
  needs: ['weather'],
  handler: reply,
});

const jobs = defineCommand({
  name: 'jobs',
  description: 'Search jobs',
  options: z.object({
    what: z.string().min(1).describe('Keywords'),
    where: z.string().optional().describe('Place'),
    country: z.string().length(2).optional().describe('Country code'),
    page: z.number().int().min(1).default(1).describe('Page number'),
    remote: z.boolean().optional().describe('Remote only'),
    radius: z.number().max(100).optional().describe('Radius in km'),
  }),
  positional: ['what', 'where'],
  needs: ['jobSearch'],
  handler: reply,
});

const host = defineCommand({
  name: 'host',
  description: 'What is known about an IP address',
  options: z.object({
    ip: z
      .string()
      .refine((v) => v.includes('.') || v.includes(':'), { message: 'must be an IPv4 or IPv6 address' })
      .describe('IP address'),
  }),
  positional: ['ip'],
  needs: ['hostscan'],
  handler: reply,
});

const emailSend = defineCommand({
  name: 'email send',
  description: 'Send an email',
  options: z.object({
    to: z.email().describe('Recipient'),
    subject: z.string().describe('Subject'),
    body: z.string().describe('Body'),
  }),
  positional: ['to', 'subject', 'body'],
  needs: ['email'],
  handler: reply,
});

const emailStatus = defineCommand({
  name: 'email status',
  description: 'Status of a sent email',
  options: z.object({ id: z.string().describe('Email id') }),
  positional: ['id'],
  needs: ['email'],
  handler: reply,
});

const voices = defineCommand({
  name: 'voices',
  description: 'List voices',
  options: z.object({}),
  needs: ['speech'],
  handler: reply,
});

const registry = createRegistry([weather, jobs, host, emailSend, emailStatus, voices] as Command[]);

function userError(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return err as UserError;
  }
  throw new Error('expected a UserError');
}

describe('tokenize', () => {
  it('splits bare words on any run of whitespace, including unicode spaces', () => {
    expect(tokenize('  New\u00a0 York \t  ')).toEqual([{ value: 'New' }, { value: 'York' }]);
  });

  it('keeps quoted words together and unescapes \\" inside them', () => {
    expect(tokenize('"say \\"hi\\" now" x')).toEqual([{ value: 'say "hi" now' }, { value: 'x' }]);
  });

  it('reads key:value, key:"multi word" and key:\'single quoted\'', () => {
    expect(tokenize('a:1 b:"two words" c:\'three more words\'')).toEqual([
      { key: 'a', value: '1' },
      { key: 'b', value: 'two words' },
      { key: 'c', value: 'three more words' },
    ]);
  });

  it('accepts curly quotes as typed by phones', () => {
    expect(tokenize('what:“rust developer” ‘São Paulo’')).toEqual([
      { key: 'what', value: 'rust developer' },
      { value: 'São Paulo' },
    ]);
  });

  it('keeps unicode text and emoji intact', () => {
    expect(tokenize('city:Zürich 東京 "👋 hi"')).toEqual([
      { key: 'city', value: 'Zürich' },
      { value: '東京' },
      { value: '👋 hi' },
    ]);
  });

  it('treats an apostrophe inside a word as a letter', () => {
    expect(tokenize("don't stop")).toEqual([{ value: "don't" }, { value: 'stop' }]);
  });

  it('keeps IPv6 addresses and URLs as words, not options', () => {
    expect(tokenize('fe80::1 abcd:ef01::2 https://example.com/x 2001:db8::ff')).toEqual([
      { value: 'fe80::1' },
      { value: 'abcd:ef01::2' },
      { value: 'https://example.com/x' },
      { value: '2001:db8::ff' },
    ]);
  });

  it('marks a key followed by a space or the end as an option without a value', () => {
    expect(tokenize('Note: hello units:')).toEqual([
      { key: 'Note', value: '', hasNoValue: true },
      { value: 'hello' },
      { key: 'units', value: '', hasNoValue: true },
    ]);
  });

  it('rejects an unterminated quote with a clear sentence', () => {
    const err = userError(() => tokenize('say "hello there'));
    expect(err.code).toBe('invalid_input');
    expect(err.message).toMatch(/never closed/);
  });

  it('keeps an empty quoted value', () => {
    expect(tokenize('a:"" ""')).toEqual([{ key: 'a', value: '' }, { value: '' }]);
  });
});

describe('parseLine', () => {
  it('splits a console line into the lower-cased command word and its text', () => {
    expect(parseLine('  /Weather   New York  ')).toEqual({ name: 'weather', text: 'New York' });
  });

  it('accepts a command without the leading slash', () => {
    expect(parseLine('help weather')).toEqual({ name: 'help', text: 'weather' });
  });

  it('returns undefined for a blank line or a lone slash', () => {
    expect(parseLine('   ')).toBeUndefined();
    expect(parseLine('/')).toBeUndefined();
  });
});

describe('resolveCommand', () => {
  it('finds a plain command and leaves its text alone', () => {
    const { command, rest } = resolveCommand(registry, 'weather', 'Oslo units:metric');
    expect(command.name).toBe('weather');
    expect(rest).toBe('Oslo units:metric');
  });

  it('resolves a subcommand from the first word of the text', () => {
    const { command, rest } = resolveCommand(registry, 'email', 'status em_123');
    expect(command.name).toBe('email status');
    expect(rest).toBe('em_123');
  });

  it('accepts the full subcommand name as given by an adapter', () => {
    expect(resolveCommand(registry, 'email send', 'a@b.co').command.name).toBe('email send');
  });

  it('lists the subcommands when a group is called alone', () => {
    const err = userError(() => resolveCommand(registry, 'email', '  '));
    expect(err.code).toBe('unknown_command');
    expect(err.message).toBe('/email needs a subcommand: /email send, /email status.');
  });

  it('names the valid subcommands when the subcommand is unknown', () => {
    const err = userError(() => resolveCommand(registry, 'email', 'delete x'));
    expect(err.message).toContain('no subcommand "delete"');
    expect(err.message).toContain('/email send, /email status');
  });

  it('answers an unknown command with a hint at the closest name', () => {
    const err = userError(() => resolveCommand(registry, 'wether', 'Oslo'));
    expect(err.code).toBe('unknown_command');
    expect(err.message).toBe('There is no command /wether; did you mean /weather? /help lists them all.');
  });

  it('gives no hint when nothing is close', () => {
    expect(userError(() => resolveCommand(registry, 'zzzzzz', '')).message).toBe(
      'There is no command /zzzzzz; /help lists them all.',
    );
  });
});

describe('parseArgs', () => {
  it('gives the last positional option every remaining word joined by single spaces', () => {
    expect(parseArgs(weather, 'New    York')).toEqual({ city: 'New York' });
  });

  it('fills positional options in order and leaves the rest to the last one', () => {
    expect(parseArgs(emailSend, 'a@b.co Hello "first line" and more')).toEqual({
      to: 'a@b.co',
      subject: 'Hello',
      body: 'first line and more',
    });
  });

  it('mixes key:value options with positional words', () => {
    expect(parseArgs(jobs, 'what:"rust developer" where:Berlin country:de page:2')).toEqual({
      what: 'rust developer',
      where: 'Berlin',
      country: 'de',
      page: '2',
    });
    expect(parseArgs(jobs, 'where:Berlin rust developer')).toEqual({
      what: 'rust developer',
      where: 'Berlin',
    });
  });

  it('keeps "word:" before a space as a word when the command has no such option', () => {
    expect(parseArgs(weather, 'Note: Oslo')).toEqual({ city: 'Note: Oslo' });
  });

  it('refuses an option written without its value, naming it, wherever it stands', () => {
    expect(userError(() => parseArgs(weather, 'London units:')).message).toBe(
      'The option units has no value; write it as units:metric with no space after the colon, or leave it out.',
    );
    expect(userError(() => parseArgs(weather, 'London units: imperial')).message).toContain(
      'The option units has no value',
    );
    const page = userError(() => parseArgs(jobs, 'rust page:'));
    expect(page.code).toBe('invalid_input');
    expect(page.message).toBe(
      'The option page has no value; write it as page:1 with no space after the colon, or leave it out.',
    );
    expect(userError(() => parseArgs(jobs, 'rust Where:')).message).toContain(
      'The option where has no value',
    );
  });

  it('matches option keys without regard to case', () => {
    expect(parseArgs(weather, 'City:Oslo UNITS:imperial')).toEqual({ city: 'Oslo', units: 'imperial' });
  });

  it('rejects an unknown option key and names the valid ones', () => {
    const err = userError(() => parseArgs(jobs, 'rust wher:Berlin'));
    expect(err.code).toBe('invalid_input');
    expect(err.message).toContain('no option "wher"');
    expect(err.message).toContain('what, where, country, page, remote, radius');
  });

  it('rejects an option given twice', () => {
    expect(userError(() => parseArgs(weather, 'city:Oslo city:Bergen')).message).toBe(
      'The option city is given twice.',
    );
  });

  it('rejects words a command without positional options cannot take', () => {
    const err = userError(() => parseArgs(voices, 'extra words'));
    expect(err.message).toBe('/voices did not expect "extra words"; usage: /voices.');
  });

  it('rejects words left over once every positional option was given by key', () => {
    const err = userError(() => parseArgs(weather, 'city:Oslo Bergen'));
    expect(err.message).toContain('did not expect "Bergen"');
    expect(err.message).toContain('usage: /weather city units:…');
  });

  it('returns no value for a positional option when no words are left', () => {
    expect(parseArgs(jobs, '')).toEqual({});
  });
});

describe('readInput', () => {
  it('answers an option typed with an inherited name in one sentence, the input unchanged', () => {
    for (const [text, sentence] of [
      ['constructor:1', '/weather has no option "constructor"; its options are city, units'],
      ['Oslo toString:x', '/weather has no option "toString"; its options are city, units'],
      // "__proto__:x" is no key:value token (a key has no "_"), so it is a word the line has no room for.
      ['city:Oslo __proto__:x', '/weather did not expect "__proto__:x"; usage: /weather city units:….'],
    ] as const) {
      const err = userError(() => readInput(weather, text));
      expect(err.code).toBe('invalid_input');
      expect(err.message).toContain(sentence);
    }
  });

  it('keeps an own "__proto__" key of a record input from changing the input', () => {
    // JSON.parse makes "__proto__" an own key; copied by assignment it would become the prototype.
    const raw = JSON.parse('{"city":"Oslo","__proto__":{"units":"imperial"}}') as Record<string, unknown>;
    expect(readInput(weather, raw)).toEqual({ city: 'Oslo', units: 'metric' });
  });

  it('coerces integers and booleans and applies schema defaults', () => {
    expect(readInput(jobs, 'rust page:3 remote:yes radius:12.5')).toEqual({
      what: 'rust',
      page: 3,
      remote: true,
      radius: 12.5,
    });
    expect(readInput(weather, 'Oslo')).toEqual({ city: 'Oslo', units: 'metric' });
  });

  it('reads enum values in any case, as country codes are', () => {
    expect(readInput(weather, 'Oslo units:IMPERIAL')).toEqual({ city: 'Oslo', units: 'imperial' });
    expect(readInput(weather, 'Oslo units:Standard')).toEqual({ city: 'Oslo', units: 'standard' });
    expect(userError(() => readInput(weather, 'Oslo units:kelvin')).message).toBe(
      'units must be one of metric, imperial, standard.',
    );
  });

  it('takes typed input from a platform as it is', () => {
    expect(readInput(jobs, { what: 'go', page: 2, where: null })).toEqual({ what: 'go', page: 2 });
  });

  it('names a missing required option with its description and the usage', () => {
    expect(userError(() => readInput(weather, '')).message).toBe(
      '/weather needs city (City name); usage: /weather city units:….',
    );
  });

  it('explains a value that is not a whole number', () => {
    expect(userError(() => readInput(jobs, 'rust page:two')).message).toBe('page must be a whole number.');
    expect(userError(() => readInput(jobs, 'rust page:1.5')).message).toBe('page must be a whole number.');
  });

  it('explains bounds on numbers and lengths', () => {
    expect(userError(() => readInput(jobs, 'rust page:0')).message).toBe('page must be at least 1.');
    expect(userError(() => readInput(jobs, 'rust radius:500')).message).toBe('radius must be at most 100.');
    expect(userError(() => readInput(weather, 'Llanfairpwllgwyngyllgogerychwyrn')).message).toBe(
      'city must be at most 20 characters long (it has 32).',
    );
    expect(userError(() => readInput(weather, 'city:""')).message).toBe('city must not be empty.');
  });

  it('lists the allowed values of a choice', () => {
    expect(userError(() => readInput(weather, 'Oslo units:kelvin')).message).toBe(
      'units must be one of metric, imperial, standard.',
    );
  });

  it('explains formats such as an email address', () => {
    expect(userError(() => readInput(emailSend, 'not-an-address Hi there')).message).toBe(
      'to must be an email address.',
    );
  });

  it('explains a boolean that is neither yes nor no', () => {
    expect(userError(() => readInput(jobs, 'rust remote:maybe')).message).toBe(
      'remote must be true or false.',
    );
  });

  it("uses a command's own message for its own rules", () => {
    expect(userError(() => readInput(host, '999')).message).toBe('ip must be an IPv4 or IPv6 address.');
  });

  it('never shows zod internals', () => {
    for (const text of ['', 'rust page:x', 'rust page:-4', 'rust country:deu', 'rust remote:2']) {
      const message = userError(() => readInput(jobs, text)).message;
      expect(message).not.toMatch(/Invalid input|expected|received|Too (big|small)/);
      expect(message.split('. ').length).toBe(1);
    }
  });
});
