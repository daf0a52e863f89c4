import { describe, expect, it } from 'vitest';
import { audioFailedSentence, SPOKEN_MAX_CHARS, spokenText, withAudioProblem } from '../../src/speak.ts';
import { ServiceError, UserError } from '../../src/errors.ts';

describe('spokenText', () => {
  it('reads units, changes and symbols as words and drops emoji, markup, sparklines and links', () => {
    expect(
      spokenText(
        '🌧️ **Oslo, NO**: light rain, 5.0 °C (feels like 41.2 °F), humidity 81%, wind 3.4 m/s\nSessions 1,234 (▲ 12.2%) `▂▃█` · see https://example.com/x',
      ),
    ).toBe(
      'Oslo, NO: light rain, 5.0 degrees Celsius (feels like 41.2 degrees Fahrenheit), humidity 81 percent, wind 3.4 metres per second. Sessions 1,234 (up 12.2 percent), see.',
    );
  });

  it('keeps a long reply short, ending at a clause with a full stop', () => {
    const long = Array.from({ length: 80 }, (_, i) => `listing ${i} at Example GmbH in Berlin`).join(', ');
    const spoken = spokenText(long);
    expect([...spoken].length).toBeLessThanOrEqual(SPOKEN_MAX_CHARS);
    expect(spoken).toMatch(/Berlin\.$/);
  });
});

describe('a reply without its audio', () => {
  it('keeps the text and embeds and adds one sentence with the reason', () => {
    const sentence = audioFailedSentence(
      new ServiceError({ service: 'speech', operation: 'synthesize', code: 'timeout' }),
    );
    expect(sentence).toBe(
      'The audio could not be made: the speech service took too long to answer; try again in a moment.',
    );
    const reply = withAudioProblem({ text: 'Oslo: rain', embeds: [{ title: 'Oslo' }] }, sentence);
    expect(reply).toEqual({
      text: `Oslo: rain\n${sentence}`,
      embeds: [{ title: 'Oslo' }, { description: sentence, color: 'warning' }],
    });
  });

  it('quotes a budget refusal as the reason', () => {
    const refusal = new UserError({
      code: 'rate_limited',
      message:
        'That needs 120 characters, but your /say budget has 20 left today; it resets at midnight UTC.',
    });
    expect(audioFailedSentence(refusal)).toBe(
      'The audio could not be made: that needs 120 characters, but your /say budget has 20 left today; it resets at midnight UTC.',
    );
  });
});
