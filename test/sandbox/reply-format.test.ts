// The reply formatting owned with the sandbox: the weather emoji follows OWM's day/night icon, and
// /host names an internal range without repeating a one-address block.
import { describe, expect, it } from 'vitest';
import { describeInternal } from '../../commands/host-format.ts';
import { conditionIcon } from '../../commands/weather-format.ts';

describe('conditionIcon', () => {
  it('shows no sun at night: the icon code’s d/n decides', () => {
    expect(conditionIcon('Clear', '01d')).toBe('☀️');
    expect(conditionIcon('Clear', '01n')).toBe('🌙');
    expect(conditionIcon('Clouds', '02d')).toBe('🌤️');
    expect(conditionIcon('Clouds', '02n')).toBe('☁️');
    expect(conditionIcon('Rain', '10d')).toBe('🌦️');
    expect(conditionIcon('Rain', '10n')).toBe('🌧️');
  });

  it('falls back to the condition group by day when no icon is given, and fog for the rest', () => {
    expect(conditionIcon('Clear')).toBe('☀️');
    expect(conditionIcon('Snow', '13n')).toBe('❄️');
    expect(conditionIcon('Mist', '50n')).toBe('🌫️');
  });
});

describe('describeInternal', () => {
  it('names a one-address range once, and a block as where the address is', () => {
    expect(describeInternal('::1', 'loopback (::1)')).toBe('the loopback address');
    expect(describeInternal('0:0:0:0:0:0:0:1', 'loopback (::1)')).toBe('the loopback address (::1)');
    expect(describeInternal('127.0.0.1', 'loopback (127.0.0.0/8)')).toBe(
      'a loopback address (in 127.0.0.0/8)',
    );
    expect(describeInternal('10.1.2.3', 'private (RFC 1918)')).toBe('a private address (RFC 1918)');
    expect(describeInternal('fe80::1', 'link-local (fe80::/10)')).toBe('a link-local address (in fe80::/10)');
    expect(describeInternal('::', 'unspecified (::)')).toBe('the unspecified address');
  });
});
