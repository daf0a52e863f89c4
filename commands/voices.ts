// /voices: the speech voices (S5 GET /voices) with category, accent and age, for /say voice:…
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { formatNumber, listMore } from './format.ts';
import { describeVoice } from './voice-format.ts';

/** A line each; beyond this the list stops being readable in chat. */
export const SHOWN_VOICES = 40;

/** Names in the one-line text (the embed lists them all). */
const SHOWN_NAMES = 10;

export const voices = defineCommand({
  name: 'voices',
  description: 'List the voices /say can use',
  options: z.object({}),
  needs: ['speech'],
  examples: ['/voices'],
  async handler(_input, ctx) {
    const { t, locale } = ctx;
    const list = await ctx.services.speech.voices({ signal: ctx.signal });
    if (list.length === 0) {
      return {
        text: t('speech:voices.none'),
        embeds: [
          {
            title: t('speech:voices.noneTitle'),
            description: t('speech:voices.noneDescription'),
            color: 'warning',
          },
        ],
      };
    }
    const sorted = [...list].sort((a, b) => a.name.localeCompare(b.name, 'en'));
    const lines = sorted.slice(0, SHOWN_VOICES).map((v) => {
      const detail = describeVoice(v, t);
      return `${v.name}${detail ? ` — ${detail}` : ''} · \`${v.id}\``;
    });
    const beyond = (shown: number) => formatNumber(sorted.length - shown, 0, locale);
    if (sorted.length > SHOWN_VOICES) lines.push(t('speech:voices.moreLine', { n: beyond(SHOWN_VOICES) }));
    const count = t('speech:voices.count', {
      count: sorted.length,
      n: formatNumber(sorted.length, 0, locale),
    });
    return {
      text: t('speech:voices.listed', {
        count,
        names: listMore(
          sorted.map((v) => v.name),
          SHOWN_NAMES,
          t,
          locale,
        ),
      }),
      embeds: [
        {
          title: count,
          description: lines.join('\n'),
          color: 'info',
          footer: t('speech:voices.footer'),
        },
      ],
    };
  },
});
