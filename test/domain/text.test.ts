import { describe, expect, it } from 'vitest';
import { escapeHtml, truncate } from '../../src/domain/text.ts';

describe('escapeHtml', () => {
  it('escapes every HTML-significant character', () => {
    expect(escapeHtml(`<script>alert("x & 'y'")</script>`)).toBe(
      '&lt;script&gt;alert(&quot;x &amp; &#39;y&#39;&quot;)&lt;/script&gt;',
    );
    expect(escapeHtml(`'"<>&`)).toBe('&#39;&quot;&lt;&gt;&amp;');
  });
});

describe('truncate', () => {
  it('leaves text within the limit alone and ends shortened text in an ellipsis', () => {
    expect(truncate('hello', 5)).toBe('hello');
    expect(truncate('hello world', 6)).toBe('hello…');
  });

  it('does not split a surrogate pair', () => {
    expect(truncate(`ab${'😀'.repeat(5)}`, 5)).toBe('ab😀…');
    // The cut would fall between the halves of the emoji: the whole emoji goes.
    expect(truncate('abcd😀fgh', 6)).toBe('abcd…');
    expect(truncate('a😀b', 3)).toBe('a…');
  });

  it('keeps text of exactly the limit whole, and counts the ellipsis within the limit', () => {
    expect(truncate('abcdef', 6)).toBe('abcdef');
    expect(truncate('abcdefg', 6)).toBe('abcde…');
    expect(truncate('abcdefg', 6)).toHaveLength(6);
    expect(truncate('abc', 1)).toBe('…');
    expect(truncate('abc', 0)).toBe('…');
    expect(truncate('', 0)).toBe('');
    // A surrogate pair is two code units of the limit.
    expect(truncate('😀😀', 4)).toBe('😀😀');
    expect(truncate('😀😀😀', 4)).toBe('😀…');
  });

  it('with oneLine, makes each run of white space one space before measuring', () => {
    expect(truncate('a  b\nc', 10, { oneLine: true })).toBe('a b c');
    expect(truncate('  Oslo\t\tNorway  ', 11, { oneLine: true })).toBe('Oslo Norway');
    expect(truncate('abcdefghijkl', 6, { oneLine: true })).toBe('abcde…');
    expect(truncate('a 😀😀😀', 4, { oneLine: true })).toBe('a …');
    // A 1 MB text of one word is read only as far as the line goes.
    expect(truncate('x'.repeat(1_000_000), 5, { oneLine: true })).toBe('xxxx…');
  });

  it('with entities, never cuts an escaped entity into other text', () => {
    expect(truncate('ab&amp;cd', 5, { entities: true })).toBe('ab…');
    expect(truncate('ab&amp;cd', 5)).toBe('ab&a…');
    expect(truncate('R&amp;D &lt;team&gt;', 9, { entities: true })).toBe('R&amp;D …');
    expect(truncate('x &lt;y', 5, { entities: true })).toBe('x …');
    // An ampersand that begins no entity is an ordinary character.
    expect(truncate('a & b & c', 6, { entities: true })).toBe('a & b…');
  });
});
