// Names from outside that every JavaScript object inherits ("constructor", "toString",
// "__proto__", ...) read as unknown in herald's fixed tables, never as a function or a prototype:
// a provider's error code, a weather condition, a GA4 metric type or name.
import { describe, expect, it } from 'vitest';
import { conditionIcon } from '../../commands/weather-format.ts';
import { dimensionLabel, formatMetric, metricLabel } from '../../src/analytics-summary/format.ts';
import { ownEntry } from '../../src/domain/lookup.ts';
import { readGoogleError } from '../../src/services/analytics/schemas.ts';
import { readJobSearchError } from '../../src/services/job-search/client.ts';
import { readSpeechError } from '../../src/services/speech/client.ts';
import { readSlackWebhookError } from '../../src/services/webhook/slack.ts';

const INHERITED = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

const answer = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body,
  text: JSON.stringify(body),
});

describe('a name every object inherits', () => {
  it.each(INHERITED)('"%s" is no known provider error code', (name) => {
    const readers = [
      readSlackWebhookError({ status: 400, headers: {}, body: undefined, text: name }),
      readJobSearchError(answer(400, { __CLASS__: 'Adzuna::API::Response::Exception', exception: name })),
      readGoogleError(answer(400, { error: { code: 400, message: 'bad', status: name } })),
      readSpeechError(answer(400, { detail: { status: name, message: 'bad' } })),
    ];
    for (const read of readers) expect(read.code).toBeUndefined();
  });

  it.each(INHERITED)('"%s" gets the fallback icon and a label made from the name', (name) => {
    expect(conditionIcon(name, '01n')).toBe('🌫️');
    expect(conditionIcon('Clear', name)).toBe('☀️');
    expect(typeof metricLabel(name)).toBe('string');
    expect(metricLabel(name)).not.toContain('function');
    expect(dimensionLabel(name)).not.toContain('function');
    expect(formatMetric(2.5, name, { name: 'depth' })).toBe('2.50');
  });

  it('still finds what the table holds', () => {
    expect(ownEntry({ sessions: 'Sessions' }, 'sessions')).toBe('Sessions');
    expect(ownEntry({ sessions: 'Sessions' }, 'toString')).toBeUndefined();
    expect(metricLabel('sessions')).toBe('Sessions');
    expect(conditionIcon('Clear', '01n')).toBe('🌙');
  });
});
