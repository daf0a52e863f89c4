import { describe, expect, it } from 'vitest';
import {
  describeEvent,
  domainOf,
  eventColor,
  isAllowedDomain,
  isEmailAddress,
  textToHtml,
} from '../../commands/email-format.ts';

describe('email helpers', () => {
  it.each([['ops@example.com'], ['first.last+tag@mail.example.co.uk'], ["o'brien@example.ie"]])(
    'accepts the address %s',
    (address) => {
      expect(isEmailAddress(address)).toBe(true);
    },
  );

  it.each([
    ['no-at-sign.example.com'],
    ['two@@example.com'],
    ['ops@localhost'],
    ['Ops <ops@example.com>'],
    ['a@example.com, b@example.com'],
    ['a..b@example.com'],
    ['ops@-example.com'],
    ['<@123456789>'],
    [`${'a'.repeat(250)}@example.com`],
  ])('rejects %j', (text) => {
    expect(isEmailAddress(text)).toBe(false);
  });

  it('checks the domain exactly and in any case, allowing everything when the list is empty', () => {
    expect(domainOf('Ops@Example.COM')).toBe('example.com');
    expect(isAllowedDomain('ops@Example.com', ['example.com'])).toBe(true);
    expect(isAllowedDomain('ops@evil-example.com', ['example.com'])).toBe(false);
    expect(isAllowedDomain('ops@example.com.evil.io', ['example.com'])).toBe(false);
    expect(isAllowedDomain('ops@sub.example.com', ['example.com'])).toBe(false);
    expect(isAllowedDomain('anyone@anywhere.org', [])).toBe(true);
  });

  it('makes paragraphs from blank lines and line breaks from single newlines', () => {
    expect(textToHtml('Hello team,\r\n\r\nThe deploy is <done>.\nSee you.\n \n\nBye')).toBe(
      '<p>Hello team,</p>\n<p>The deploy is &lt;done&gt;.<br>\nSee you.</p>\n<p>Bye</p>',
    );
  });

  it('colours delivery events by outcome and words them for people', () => {
    expect(eventColor('delivered')).toBe('success');
    expect(eventColor('bounced')).toBe('error');
    expect(eventColor('delivery_delayed')).toBe('warning');
    expect(eventColor('queued')).toBe('info');
    expect(eventColor(undefined)).toBe('info');
    expect(describeEvent('delivery_delayed')).toBe('delivery delayed');
    expect(describeEvent(undefined)).toBe('not sent yet');
  });

  it('colours an event named like an inherited member as any unknown event', () => {
    for (const event of ['constructor', 'toString', '__proto__']) expect(eventColor(event)).toBe('info');
  });
});
