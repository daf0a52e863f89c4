// /voices: the speech voices (S5 GET /voices) with category, accent and age, for /say voice:…
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { listWithMore, plural } from './format.ts';
import { describeVoice } from './voice-format.ts';

/** A line each; beyond this the list stops being readable in chat. */
export const SHOWN_VOICES = 40;

export const voices = defineCommand({
  name: 'voices',
  description: 'List the voices /say can use',
  options: z.object({}),
  needs: ['speech'],
  examples: ['/voices'],
  async handler(_input, ctx) {
    const list = await ctx.services.speech.voices({ signal: ctx.signal });
    if (list.length === 0) {
      return {
        text: 'No voices are available to herald.',
        embeds: [
          {
            title: 'No voices',
            description: "The speech account has no voices. Add some in the provider's voice library.",
            color: 'warning',
          },
        ],
      };
    }
    const sorted = [...list].sort((a, b) => a.name.localeCompare(b.name, 'en'));
    const lines = sorted.slice(0, SHOWN_VOICES).map((v) => {
      const detail = describeVoice(v);
      return `${v.name}${detail ? ` — ${detail}` : ''} · \`${v.id}\``;
    });
    if (sorted.length > SHOWN_VOICES) lines.push(`… and ${sorted.length - SHOWN_VOICES} more`);
    return {
      text: `${plural(sorted.length, 'voice')}: ${listWithMore(
        sorted.map((v) => v.name),
        10,
      )}`,
      embeds: [
        {
          title: `${plural(sorted.length, 'voice')}`,
          description: lines.join('\n'),
          color: 'info',
          footer: 'Use one with /say text voice:<name or id>',
        },
      ],
    };
  },
});
