// An option that takes a command line (`.meta({ commandLine: true })`): in typed text, the first
// word starting with "/" outside quotes begins its value, which is the rest of the text as typed.
// What comes before binds as it does for any command; commands without such an option are unchanged.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSayCommand } from '../../commands/say.ts';
import { parseArgs, readInput, tokenize } from '../../src/core/args.ts';
import { defineCommand, describeOptions } from '../../src/core/command.ts';
import { UserError } from '../../src/errors.ts';

const reply = async () => ({ text: 'ok' });

const later = defineCommand({
  name: 'later',
  description: 'Run a command line later',
  options: z.object({
    when: z.string().min(1).describe('When'),
    line: z.string().trim().min(1).describe('The command line').meta({ commandLine: true }),
    to: z.string().optional().describe('Where'),
  }),
  positional: ['when', 'line'],
  needs: [],
  handler: reply,
});

function userError(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error('expected a UserError');
}

describe('an option that takes a command line', () => {
  it('is marked in the option specs, read from zod metadata', () => {
    const specs = describeOptions(later.options);
    expect(specs.find((s) => s.name === 'line')?.commandLine).toBe(true);
    expect(specs.filter((s) => s.commandLine)).toHaveLength(1);
  });

  it('takes the text from the first "/" word as typed: quotes, spacing and key:value words', () => {
    expect(parseArgs(later, 'every day /weather  Oslo units:imperial city:"New York"')).toEqual({
      when: 'every day',
      line: '/weather  Oslo units:imperial city:"New York"',
    });
    // A quote left open in the line is the line's to refuse, not the outer command's.
    expect(parseArgs(later, 'daily /say "hi')).toEqual({ when: 'daily', line: '/say "hi' });
  });

  it('binds the words and key:value options before the line as for any command', () => {
    expect(parseArgs(later, 'to:ops "daily at 08:00" /voices to:elsewhere')).toEqual({
      to: 'ops',
      when: 'daily at 08:00',
      line: '/voices to:elsewhere',
    });
    expect(userError(() => parseArgs(later, 'colour:red daily /voices')).message).toBe(
      '/later has no option "colour"; its options are when, line, to (put words holding ":" in quotes).',
    );
    expect(userError(() => parseArgs(later, 'when:daily hourly /voices')).message).toBe(
      '/later did not expect "hourly"; usage: /later when line to:….',
    );
  });

  it('starts only at a bare word: not a quoted one, not a key:value, not one inside a word', () => {
    expect(parseArgs(later, '"/not a line" /voices')).toEqual({ when: '/not a line', line: '/voices' });
    expect(parseArgs(later, 'to:/x daily /voices')).toEqual({ to: '/x', when: 'daily', line: '/voices' });
    expect(parseArgs(later, '*/30 /voices')).toEqual({ when: '*/30', line: '/voices' });
  });

  it('reads a keyed value as today, and refuses a line given both ways', () => {
    expect(parseArgs(later, 'when:daily line:"/jobs what:\\"rust developer\\"" to:ops')).toEqual({
      when: 'daily',
      line: '/jobs what:"rust developer"',
      to: 'ops',
    });
    expect(userError(() => parseArgs(later, 'line:/voices daily /weather Oslo')).message).toBe(
      'The option line is given twice.',
    );
  });

  it('fills its positional slot from words when no word starts with "/"', () => {
    expect(parseArgs(later, 'daily voices')).toEqual({ when: 'daily', line: 'voices' });
    expect(readInput(later, 'daily /weather Oslo')).toEqual({ when: 'daily', line: '/weather Oslo' });
  });

  it('leaves a command without one as it was: "/" words are words, key:value words options', () => {
    const say = createSayCommand({ modelId: 'eleven_multilingual_v2' });
    expect(parseArgs(say, 'read /weather Oslo aloud')).toEqual({ text: 'read /weather Oslo aloud' });
    expect(parseArgs(say, '/weather Oslo voice:Rachel')).toEqual({ text: '/weather Oslo', voice: 'Rachel' });
    expect(userError(() => parseArgs(say, '/weather Oslo units:imperial')).message).toContain(
      '/say has no option "units"',
    );
    expect(() => tokenize('daily /weather "Oslo')).toThrow(UserError);
  });

  it('is one option a command at most', () => {
    const line = z.string().describe('A line').meta({ commandLine: true });
    expect(() =>
      defineCommand({
        name: 'twice',
        description: 'Two lines',
        options: z.object({ a: line, b: line }),
        needs: [],
        handler: reply,
      }),
    ).toThrow('only one option may take a command line');
  });
});
