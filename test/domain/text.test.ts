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
  });
});
