// Property tests (fast-check) for every command's validation path through the real dispatcher,
// with services whose every method records the call and throws: every invocation gets exactly one
// reply and no exception escapes, and input that is invalid never reaches an upstream.
import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JOB_COUNTRIES } from '../../src/domain/job-countries.ts';
import { RANGE_CHOICES } from '../../commands/report.ts';
import {
  ALLOWED,
  COMMANDS,
  MODEL_LIMIT,
  STRANGER,
  anyString,
  argText,
  dispatcher,
  expectOneReply,
  expectRefusedLocally,
  expectSent,
  invoke,
  optionName,
  quoted,
  tricky,
} from './property-inputs.ts';

describe('every command through the dispatcher, with upstreams that fail', () => {
  it('answers any text for any command with exactly one reply and never throws', async () => {
    const name = fc.constantFrom(...COMMANDS.map((c) => c.name), 'email', 'weathr', 'HELP', '', '/');
    await fc.assert(
      fc.asyncProperty(name, argText, async (command, text) => {
        const reply = expectOneReply(await invoke(command, text));
        // A refusal is one sentence on one line, whatever the input held.
        if (reply.ephemeral === true && reply.embeds === undefined) {
          expect(reply.text).not.toMatch(/[\r\n\u2028\u2029]/);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('/host never looks up text that is not an IP address (node:net isIP), typed or as an option', async () => {
    const notIp = fc.oneof(
      anyString,
      tricky,
      fc.ipV4Extended(),
      fc.domain(),
      fc.ipV6().map((ip) => `[${ip}]`),
      fc.ipV6().map((ip) => `${ip}%eth0`),
    );
    await fc.assert(
      fc.asyncProperty(notIp, fc.boolean(), async (ip, asText) => {
        fc.pre(isIP(ip.trim()) === 0 || ip.includes('%'));
        expectRefusedLocally(await invoke('host', asText ? quoted(ip) : { ip }));
      }),
      { numRuns: 1_500 },
    );
  });

  it('/host never looks up a private, loopback, link-local or multicast address', async () => {
    const byte = fc.integer({ min: 0, max: 255 });
    const internal = fc.oneof(
      fc.tuple(byte, byte, byte).map(([a, b, c]) => `10.${a}.${b}.${c}`),
      fc.tuple(fc.integer({ min: 16, max: 31 }), byte, byte).map(([a, b, c]) => `172.${a}.${b}.${c}`),
      fc.tuple(byte, byte).map(([a, b]) => `192.168.${a}.${b}`),
      fc.tuple(byte, byte, byte).map(([a, b, c]) => `127.${a}.${b}.${c}`),
      fc.tuple(byte, byte).map(([a, b]) => `169.254.${a}.${b}`),
      fc.tuple(fc.integer({ min: 224, max: 255 }), byte, byte, byte).map((o) => o.join('.')),
      fc.constantFrom(
        '::1',
        '::',
        '0:0:0:0:0:0:0:1',
        'fe80::1',
        'fd12:3456:789a::1',
        'ff02::1',
        '::ffff:10.0.0.1',
      ),
    );
    await fc.assert(
      fc.asyncProperty(internal, async (ip) => {
        const outcome = await invoke('host', ip);
        expectOneReply(outcome);
        expect(outcome.calls).toEqual([]);
      }),
      { numRuns: 1_000 },
    );
  });

  it('/host looks up a public address', async () => {
    const publicIp = fc
      .tuple(
        fc.constantFrom(8, 23, 45, 81, 93, 104, 151, 185, 208),
        fc.nat(255),
        fc.nat(255),
        fc.integer({ min: 1, max: 254 }),
      )
      .map((o) => o.join('.'));
    await fc.assert(
      fc.asyncProperty(publicIp, async (ip) => expectSent(await invoke('host', ip), 'hostscan')),
      { numRuns: 300 },
    );
  });

  it('/host sends nothing for anyone off its allowlist, whatever the input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(argText, fc.ipV4()),
        fc.constantFrom('host', 'email'),
        async (text, command) => {
          expectRefusedLocally(await invoke(command, command === 'email' ? `send ${text}` : text, STRANGER));
        },
      ),
      { numRuns: 500 },
    );
  });

  const PAGE_RE = /^[+-]?\d+$/;
  function isValidJobsInput(what: string, country: string | undefined, page: string | undefined): boolean {
    const isWhatValid = what.trim().length >= 1 && what.trim().length <= 100;
    const isCountryValid = country === undefined || JOB_COUNTRIES.includes(country.trim().toLowerCase());
    const pageNumber = page === undefined ? 1 : PAGE_RE.test(page.trim()) ? Number(page.trim()) : Number.NaN;
    return (
      isWhatValid && isCountryValid && Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= 1_000
    );
  }

  it('/jobs searches only one of the 19 countries, from page 1 to 1000', async () => {
    const country = fc.option(
      fc.oneof(
        fc.constantFrom(...JOB_COUNTRIES, 'GB', ' de ', 'uk', 'eu', 'xx', 'u', 'usa', ''),
        fc.string({ maxLength: 3 }),
        tricky,
      ),
      { nil: undefined },
    );
    const page = fc.option(
      fc.oneof(
        fc.integer({ min: -2_000, max: 2_000 }).map(String),
        fc.constantFrom('0', '1', '1000', '1001', '+3', '-1', '1.5', '2e1', '007', ' 4 ', '١', 'NaN', ''),
        fc.double().map(String),
        anyString,
      ),
      { nil: undefined },
    );
    const what = fc.oneof(fc.constantFrom('nurse', 'rust developer'), anyString);
    await fc.assert(
      fc.asyncProperty(what, country, page, async (w, c, p) => {
        const text = [
          `what:${quoted(w)}`,
          c === undefined ? '' : `country:${quoted(c)}`,
          p === undefined ? '' : `page:${quoted(p)}`,
        ].join(' ');
        const outcome = await invoke('jobs', text);
        if (isValidJobsInput(w, c, p)) expectSent(outcome, 'jobSearch');
        else expectRefusedLocally(outcome);
      }),
      { numRuns: 1_500 },
    );
  });

  it('/jobs with typed options (Discord) refuses a page below 1 or a country not covered', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 1_001 }), fc.double({ noInteger: true })),
        fc.oneof(fc.constant(undefined), fc.constantFrom(...JOB_COUNTRIES)),
        async (page, country) => {
          expectRefusedLocally(
            await invoke('jobs', { what: 'nurse', page, ...(country ? { country } : {}) }),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('/say refuses a text over the model limit before any request, voices included', async () => {
    const long = fc.string({ unit: 'binary', minLength: MODEL_LIMIT + 1, maxLength: MODEL_LIMIT + 300 });
    await fc.assert(
      fc.asyncProperty(long, fc.boolean(), fc.boolean(), async (text, asText, withVoice) => {
        fc.pre([...text.trim()].length > MODEL_LIMIT);
        const voice = withVoice ? { voice: 'Rachel' } : {};
        const raw = asText ? `${quoted(text)}${withVoice ? ' voice:Rachel' : ''}` : { text, ...voice };
        expectRefusedLocally(await invoke('say', raw));
      }),
      { numRuns: 300 },
    );
  });

  it('/say speaks a text within the model limit', async () => {
    const text = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: MODEL_LIMIT });
    await fc.assert(
      fc.asyncProperty(text, async (t) => {
        fc.pre(t.trim() !== '');
        expectSent(await invoke('say', { text: t }), 'speech');
      }),
      { numRuns: 200 },
    );
  });

  it('/geocode asks only for 1 to 10 matches of a query of at most 20 words and 256 characters, without ";"', async () => {
    const limit = fc.option(
      fc.oneof(
        fc.integer({ min: -50, max: 60 }).map(String),
        fc.constantFrom('1', '10', '0', '11', '5.5', '1e1', 'ten', ''),
        anyString,
      ),
      { nil: undefined },
    );
    const query = fc.oneof(
      fc.constantFrom(
        'Eiffel Tower',
        '10 Downing Street, London',
        'a;b',
        ' ',
        'w '.repeat(21),
        'x'.repeat(257),
      ),
      anyString,
      fc
        .array(fc.constantFrom('word', 'two', 'Paris'), { minLength: 15, maxLength: 25 })
        .map((w) => w.join(' ')),
    );
    await fc.assert(
      fc.asyncProperty(query, limit, async (q, l) => {
        const trimmed = q.trim();
        const n = l === undefined ? 5 : /^[+-]?\d+$/.test(l.trim()) ? Number(l.trim()) : Number.NaN;
        const isValid =
          trimmed !== '' &&
          trimmed.length <= 256 &&
          !trimmed.includes(';') &&
          trimmed.split(/\s+/).length <= 20 &&
          Number.isInteger(n) &&
          n >= 1 &&
          n <= 10;
        const outcome = await invoke(
          'geocode',
          `${quoted(q)}${l === undefined ? '' : ` limit:${quoted(l)}`}`,
        );
        if (isValid) expectSent(outcome, 'geocoding');
        else expectRefusedLocally(outcome);
      }),
      { numRuns: 1_000 },
    );
  });

  it('/geocode with a typed limit (Discord) asks only for 1 to 10 matches', async () => {
    const limit = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, 1, 10, 11, -1, 2 ** 31, Number.NaN));
    await fc.assert(
      fc.asyncProperty(limit, async (n) => {
        const outcome = await invoke('geocode', { query: 'Eiffel Tower', limit: n });
        if (Number.isInteger(n) && n >= 1 && n <= 10) expectSent(outcome, 'geocoding');
        else expectRefusedLocally(outcome);
      }),
      { numRuns: 500 },
    );
  });

  it('/weather and /forecast ask only for a city of 1 to 100 characters in known units', async () => {
    const units = fc.option(
      fc.oneof(fc.constantFrom('metric', 'imperial', 'standard', 'Metric', 'kelvin', ''), anyString),
      {
        nil: undefined,
      },
    );
    const city = fc.oneof(
      fc.constantFrom('London', 'New York,US', ' ', 'x'.repeat(101)),
      anyString,
      fc.string({ maxLength: 120 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('weather', 'forecast'), city, units, async (command, c, u) => {
        const trimmed = c.trim();
        const isValid =
          trimmed.length >= 1 &&
          trimmed.length <= 100 &&
          // Choices are matched regardless of case ("Metric").
          (u === undefined || ['metric', 'imperial', 'standard'].includes(u.toLowerCase()));
        const outcome = await invoke(command, { city: c, ...(u === undefined ? {} : { units: u }) });
        if (isValid) expectSent(outcome, 'weather');
        else expectRefusedLocally(outcome);
      }),
      { numRuns: 800 },
    );
  });

  it('/email send sends only to one address at an allowed domain, with a subject and a body', async () => {
    const to = fc.oneof(
      fc.emailAddress().map((a) => `${a.slice(0, a.lastIndexOf('@'))}@example.com`),
      fc.emailAddress(),
      fc.constantFrom(
        'ops@example.com',
        'ops@EXAMPLE.com',
        'ops@example.com.evil.test',
        'a@b',
        '@example.com',
        'ops@example.com, boss@example.com',
        'Ops <ops@example.com>',
      ),
      anyString,
    );
    const text = fc.oneof(fc.constantFrom('Deploy done', ' ', ''), anyString);
    await fc.assert(
      fc.asyncProperty(to, text, text, async (t, subject, body) => {
        const looksLikeOneAddress = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/.test(t.trim());
        const isAllowedDomain = t.trim().toLowerCase().endsWith('@example.com');
        const outcome = await invoke(
          'email',
          `send to:${quoted(t)} subject:${quoted(subject)} body:${quoted(body)}`,
        );
        if (!looksLikeOneAddress || !isAllowedDomain || subject.trim() === '' || body.trim() === '') {
          expectRefusedLocally(outcome);
        } else {
          expectOneReply(outcome);
          // Every call, when there is one, is the email service's.
          expect(outcome.calls.every((c) => c.service === 'email')).toBe(true);
        }
      }),
      { numRuns: 800 },
    );
  });

  it('/email status fetches only an email id (a UUID)', async () => {
    const id = fc.oneof(
      fc.uuid(),
      fc.uuid().map((u) => `${u}x`),
      fc.constantFrom('..', '../emails', '%2e%2e', '49a3999c'),
      anyString,
    );
    await fc.assert(
      fc.asyncProperty(id, async (i) => {
        const outcome = await invoke('email', `status ${quoted(i)}`);
        const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(i.trim());
        if (isUuid) expectSent(outcome, 'email');
        else expectRefusedLocally(outcome);
      }),
      { numRuns: 800 },
    );
  });

  it('/report runs only for one of its ranges; /voices only without arguments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...RANGE_CHOICES, '7D', '1d', '365d', 'today'), anyString),
        async (range) => {
          const outcome = await invoke('report', quoted(range));
          const isChoice = RANGE_CHOICES.some((c) => c.toLowerCase() === range.toLowerCase());
          if (isChoice) expectSent(outcome, 'analytics');
          else expectRefusedLocally(outcome);
        },
      ),
      { numRuns: 400 },
    );
    await fc.assert(
      fc.asyncProperty(argText, async (text) => {
        const outcome = await invoke('voices', text);
        if (text.trim() === '') expectSent(outcome, 'speech');
        else expectRefusedLocally(outcome);
      }),
      { numRuns: 400 },
    );
  });

  it('answers any autocomplete request with at most 25 choices Discord accepts, and never throws', async () => {
    const command = fc.constantFrom(...COMMANDS.map((c) => c.name), 'nope', '');
    const partial = fc.oneof(anyString, tricky, fc.string({ maxLength: 5_000 }));
    await fc.assert(
      fc.asyncProperty(
        command,
        optionName,
        partial,
        fc.constantFrom(ALLOWED, STRANGER),
        async (c, o, p, actor) => {
          const choices = await dispatcher.onAutocomplete({ command: c, option: o, partial: p, actor });
          expect(choices.length).toBeLessThanOrEqual(25);
          for (const choice of choices) {
            expect(choice.name.length).toBeGreaterThanOrEqual(1);
            expect(choice.name.length).toBeLessThanOrEqual(100);
            expect(choice.value.length).toBeLessThanOrEqual(100);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
