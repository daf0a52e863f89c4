// Property tests (fast-check) for the argument grammar of src/core/args.ts: tokenize, parseLine,
// parseArgs and readInput take any text or typed value and answer with options or a UserError,
// never another exception, and quoted values read back exactly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArgs, parseLine, readInput, tokenize, type ArgToken } from '../../src/core/args.ts';
import type { Command } from '../../src/core/command.ts';
import { UserError } from '../../src/errors.ts';
import { COMMANDS, anyString, argText, optionName, quoted, tricky } from './property-inputs.ts';

// ---------------------------------------------------------------------------------------------

const KEY_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;

function expectOnlyUserError(run: () => unknown): void {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).code).toBe('invalid_input');
    expect((err as UserError).message).not.toBe('');
  }
}

describe('the argument grammar', () => {
  it('tokenize returns tokens or a UserError for any text, never anything else', () => {
    fc.assert(
      fc.property(fc.oneof(argText, anyString), (text) => {
        let tokens: ArgToken[] | undefined;
        expectOnlyUserError(() => (tokens = tokenize(text)));
        for (const token of tokens ?? []) {
          expect(typeof token.value).toBe('string');
          if (token.key !== undefined) expect(token.key).toMatch(KEY_RE);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads back exactly the tokens it was given, whatever their quotes, colons and backslashes', () => {
    const token = fc.record(
      {
        key: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,11}$/),
        value: fc.oneof(anyString, tricky, fc.string({ unit: 'binary', maxLength: 400 })),
      },
      { requiredKeys: ['value'] },
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 8 }), (tokens) => {
        const text = tokens
          .map((t) => `${t.key === undefined ? '' : `${t.key}:`}${quoted(t.value)}`)
          .join(' ');
        expect(tokenize(text)).toEqual(tokens.map((t) => (t.key === undefined ? { value: t.value } : t)));
      }),
      { numRuns: 1_000 },
    );
  });

  it('parseLine finds a lower-case command word or nothing, for any line', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          argText,
          fc.tuple(fc.constantFrom('/', '', ' /', '//'), anyString, argText).map((p) => p.join('')),
        ),
        (line) => {
          const parsed = parseLine(line);
          if (parsed === undefined) return;
          expect(parsed.name).not.toBe('');
          expect(parsed.name).not.toMatch(/\s/u);
          expect(parsed.name).toBe(parsed.name.toLowerCase());
          expect(parsed.text).toBe(parsed.text.trimEnd());
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('parseArgs and readInput give every command its options or a UserError, for any text', () => {
    fc.assert(
      fc.property(fc.constantFrom(...COMMANDS), argText, (command: Command, text) => {
        expectOnlyUserError(() => {
          const raw = parseArgs(command, text);
          for (const name of Object.keys(raw)) expect(Object.keys(command.options.shape)).toContain(name);
        });
        expectOnlyUserError(() => readInput(command, text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('readInput gives every command its options or a UserError for any typed values (Discord, buttons)', () => {
    const value = fc.oneof(
      fc.anything(),
      fc.double(),
      fc.integer(),
      fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 2 ** 53, -1, 0, 1_001),
      anyString,
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...COMMANDS),
        fc.dictionary(optionName, value, { maxKeys: 5 }),
        (command: Command, raw) => {
          expectOnlyUserError(() => readInput(command, raw));
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
