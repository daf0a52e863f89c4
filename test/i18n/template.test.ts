// The translator's kept texts (src/i18n/template.ts): every catalogue message is plain, so each is
// kept, and each is written exactly as i18next writes it. i18next's own answer is the same
// translator's with one more value no message names: such a call is i18next's alone.
import { describe, expect, it } from 'vitest';
import { leaves, type Tree } from './leaves.ts';
import { LANGUAGES } from '../../src/domain/preferences.ts';
import { CATALOGUE } from '../../src/i18n/catalogue.ts';
import { compileMessage, fillTemplate, fitsTemplate } from '../../src/i18n/template.ts';
import { translatorFor, type MessageKey } from '../../src/i18n/translate.ts';

type Values = Record<string, string | number>;

const areas = Object.entries(CATALOGUE) as unknown as [string, Record<string, Tree>][];
/** Every message key (a plural's without its form) with the placeholders its texts name. */
const messages = new Map<string, Set<string>>();
/** The keys with plural forms. */
const plurals = new Set<string>();
for (const [area, byLanguage] of areas) {
  for (const language of LANGUAGES) {
    for (const [key, text] of leaves(byLanguage[language]!)) {
      const id = `${area}:${key.replace(/_(zero|one|two|few|many|other)$/, '')}`;
      if (id !== `${area}:${key}`) plurals.add(id);
      const names = messages.get(id) ?? new Set<string>();
      for (const m of text.matchAll(/\{\{(.+?)\}\}/g)) names.add(m[1]!.trim());
      messages.set(id, names);
    }
  }
}

/** Values that would show any second reading: placeholders, a nesting, replacement patterns. */
const TRICKY = ['{{id}}', '$t(weather:title)', "$& $' $1", '', 'x'];
const COUNTS = [0, 1, 2, 3, 5, 21, 1.5, -1, 1_000_000];

function valuesFor(key: string, names: ReadonlySet<string>, round: number): Values[] {
  const own = [...names].filter((n) => !n.startsWith('/') && n !== 'count');
  const all = (value: (i: number) => string | number): Values =>
    Object.fromEntries(own.map((n, i) => [n, value(i)]));
  const sets: Values[] = [{}, all((i) => TRICKY[(i + round) % TRICKY.length]!), all((i) => i * 7 + round)];
  // One value missing, one present but unset: the placeholder left as written, and empty.
  if (own.length > 0) sets.push({ ...all(() => 'v'), [own[0]!]: undefined as unknown as string });
  if (own.length > 1) sets.push(Object.fromEntries(own.slice(1).map((n) => [n, 'w'])));
  const counts = plurals.has(key) || names.has('count') ? COUNTS : [2];
  return sets.flatMap((v) => [v, ...counts.map((count) => ({ ...v, count })), { ...v, count: 'many' }]);
}

describe("the translator's kept texts", () => {
  it('keep every message of the catalogue (none is left to i18next alone)', () => {
    const notKept: string[] = [];
    for (const [area, byLanguage] of areas) {
      for (const language of LANGUAGES) {
        for (const [key, text] of leaves(byLanguage[language]!)) {
          if (!compileMessage(text)) notKept.push(`${area}:${key}@${language}`);
        }
      }
    }
    expect(notKept).toEqual([]);
  });

  it("write every message in every language and on every platform as i18next's t() does", () => {
    let compared = 0;
    const differ: string[] = [];
    for (const language of LANGUAGES) {
      for (const platform of ['discord', 'slack'] as const) {
        const t = translatorFor(language, platform);
        let round = 0;
        for (const [key, names] of messages) {
          for (const values of valuesFor(key, names, round++)) {
            const k = key as MessageKey;
            const kept = t(k, values);
            const i18next = t(k, { ...values, notAPlaceholderOfAnyMessage: 'i18next' });
            if (kept !== i18next)
              differ.push(`${key} ${language} ${platform} ${JSON.stringify(values)}: ${kept}`);
            compared++;
          }
        }
      }
    }
    expect(differ).toEqual([]);
    expect(compared).toBeGreaterThan(10_000);
  });

  it('leave to i18next what it would read another way', () => {
    for (const text of [
      'a $t(weather:title)',
      '{{- city}}',
      '{{n, number}}',
      '{{a.b}}',
      '{{lng}}',
      '{{ }}',
    ]) {
      expect(compileMessage(text), text).toBeUndefined();
    }
    const template = compileMessage('{{ city }} at {{when}}')!;
    expect(fitsTemplate(template, { city: 'x', count: 2 })).toBe(true);
    expect(fitsTemplate(template, { city: 'x', context: 'male' })).toBe(false);
    expect(fillTemplate(template, { city: 'Oslo' }, { when: 'noon' })).toBe('Oslo at noon');
    expect(fillTemplate(template, {}, {})).toBe('{{ city }} at {{when}}');
  });
});
