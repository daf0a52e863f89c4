import { describe, expect, it } from 'vitest';
import { decodeSlackText } from '../../../adapters/slack/escape.ts';
import {
  escapeControl,
  escapeMrkdwn,
  escapePlainText,
  formatMrkdwn,
  hasOpenFence,
  mrkdwnLink,
  safeLinkUrl,
} from '../../../src/render/slack-escape.ts';

describe('escapeMrkdwn', () => {
  it('turns &, < and > into entities so no special sequence survives', () => {
    expect(escapeControl('a & <b> c')).toBe('a &amp; &lt;b&gt; c');
    expect(escapeMrkdwn('<!channel> <!here> <@U123> <!subteam^S0TEAM|@ops> <#C0GENERAL>')).toBe(
      '&lt;!channel&gt; &lt;!here&gt; &lt;@U123&gt; &lt;!subteam^S0TEAM|@ops&gt; &lt;#C0GENERAL&gt;',
    );
  });

  it('keeps a link from becoming a link', () => {
    const out = escapeMrkdwn('<http://evil.example/login|Reset your password>');
    expect(out).toBe('&lt;http://evil.example/login|Reset your password&gt;');
    expect(out).not.toContain('<');
  });

  it('defuses the broadcast words with an invisible word joiner', () => {
    const out = escapeMrkdwn('hey @everyone and @here, also @Channel');
    expect(out).not.toMatch(/@(everyone|here|channel)/i);
    expect(out).toBe('hey @\u2060everyone and @\u2060here, also @\u2060Channel');
    expect(out.replaceAll('\u2060', '')).toBe('hey @everyone and @here, also @Channel');
  });

  it('swaps formatting markers for look-alikes so user text cannot bold, strike or open code', () => {
    const out = escapeMrkdwn('*bold* ~strike~ `code` _italic_');
    expect(out).toBe('\u2217bold\u2217 \u223Cstrike\u223C \u02CBcode\u02CB \u02CDitalic\u02CD');
  });

  it('keeps underscores inside words, as in snake_case and email addresses', () => {
    expect(escapeMrkdwn('first_last@example.com uses max_retries')).toBe(
      'first_last@example.com uses max_retries',
    );
  });

  it('stops a leading > from starting a block quote, on every line', () => {
    expect(escapeMrkdwn('> quoted\nplain > not\n  > indented')).toBe(
      '\uFF1E quoted\nplain &gt; not\n  \uFF1E indented',
    );
  });

  it('escapes the control characters and broadcast words of plain_text, which Slack decodes for display', () => {
    expect(escapePlainText('A & B <x> @here')).toBe('A &amp; B &lt;x&gt; @\u2060here');
  });
});

describe('formatMrkdwn', () => {
  it('keeps code fences and code spans, escaping only control characters and broadcasts inside', () => {
    expect(formatMrkdwn('Ports:\n```\n22/tcp <ssh> *x* @here\n```')).toBe(
      'Ports:\n```\n22/tcp &lt;ssh&gt; *x* @\u2060here\n```',
    );
    expect(formatMrkdwn('Voice `abc_1*` <!channel>')).toBe('Voice `abc_1*` &lt;!channel&gt;');
  });

  it('drops a language tag Slack would show as a line of code', () => {
    expect(formatMrkdwn('```ts\nconst a = 1;\n```')).toBe('```const a = 1;\n```');
  });

  it('turns **bold** into Slack bold and keeps the rest escaped', () => {
    expect(formatMrkdwn('**Paris** is *sunny* <@U1>')).toBe('*Paris* is \u2217sunny\u2217 &lt;@U1&gt;');
  });

  it('defuses a backtick that opens nothing', () => {
    expect(formatMrkdwn('it`s fine')).toBe('it\u02CBs fine');
    expect(formatMrkdwn('a ``` b')).toBe('a \u02CB\u02CB\u02CB b');
    expect(hasOpenFence(formatMrkdwn('a ``` b'))).toBe(false);
  });
});

describe('links', () => {
  it('accepts only http and https URLs and escapes what would end the link', () => {
    expect(safeLinkUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeLinkUrl('not a url')).toBeUndefined();
    expect(safeLinkUrl('https://maps.example/?q=a|b&z=3')).toBe('https://maps.example/?q=a%7Cb&amp;z=3');
  });

  it('builds a link with an escaped label, or plain text for an unsafe URL', () => {
    expect(mrkdwnLink('https://x.example/a', '<!here> map')).toBe('<https://x.example/a|&lt;!here&gt; map>');
    expect(mrkdwnLink('ftp://x.example/a', 'map')).toBe('map');
  });
});

describe('decodeSlackText', () => {
  it('decodes the entities Slack sends in slash command text', () => {
    expect(decodeSlackText('S&amp;P &lt;500&gt; &amp;lt;')).toBe('S&P <500> &lt;');
  });

  it('unwraps mailto and web links to what the user typed', () => {
    expect(decodeSlackText('send to:<mailto:ops@example.com|ops@example.com> subject:hi')).toBe(
      'send to:ops@example.com subject:hi',
    );
    expect(decodeSlackText('<https://example.com/a?b=1&amp;c=2|example.com/a>')).toBe(
      'https://example.com/a?b=1&c=2',
    );
    expect(decodeSlackText('<http://example.com>')).toBe('http://example.com');
  });

  it('keeps user and channel references as Slack sent them', () => {
    expect(decodeSlackText('<@U0ALICE|alice> in <#C0123|general>')).toBe(
      '<@U0ALICE|alice> in <#C0123|general>',
    );
  });
});
