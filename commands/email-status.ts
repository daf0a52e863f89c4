// /email status id: the record of a sent email from S1 (GET /emails/{id}) with its last event.
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { timeValue, type Reply } from '../src/core/reply.ts';
import type { CommandWatch } from '../src/core/watch-contract.ts';
import type { EmailRecord } from '../src/services/email/client.ts';
import { emailAccess } from './access.ts';
import { EMAIL_ID_RE, describeEvent, eventColor, type EmailCommandOptions } from './email-format.ts';
import { formatRelative, listMore, truncate } from './format.ts';

/** A watch of /email status posts its last event when it changed (~ delivered → bounced). */
const emailStatusWatch: CommandWatch<EmailRecord> = {
  mode: 'diff',
  items: (record) => [{ key: 'last event', text: describeEvent(record.lastEvent) }],
};

export function createEmailStatusCommand(opts: Pick<EmailCommandOptions, 'users' | 'roles'>) {
  return defineCommand({
    name: 'email status',
    description: 'Show a sent email and its latest delivery event',
    options: z.object({
      id: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .regex(EMAIL_ID_RE, {
          error:
            'That is not an email id; /email send replies with one, e.g. 49a3999c-0ce1-4ea6-ab68-afcd6dc2e794.',
        })
        .describe('The id /email send replied with'),
    }),
    positional: ['id'],
    needs: ['email'],
    access: [emailAccess(opts)],
    ephemeral: true,
    examples: ['/email status 49a3999c-0ce1-4ea6-ab68-afcd6dc2e794'],
    watch: emailStatusWatch,
    async handler(input, ctx) {
      const { t, locale } = ctx;
      const record = await ctx.services.email.get(input.id, { signal: ctx.signal });
      if (record === undefined) {
        return {
          text: t('email:notFound.text', { id: input.id }),
          outcome: 'not-found',
          ephemeral: true,
          embeds: [
            {
              title: t('email:notFound.title'),
              description: t('email:notFound.description', { id: input.id }),
              color: 'warning',
            },
          ],
        };
      }
      const event = describeEvent(record.lastEvent, t);
      const created = formatRelative(record.createdAt, ctx.now(), locale);
      const reply: Reply = {
        text: t('email:status', { id: record.id, to: listMore(record.to, 3, t, locale), event }),
        ephemeral: true,
        embeds: [
          {
            title: truncate(record.subject || t('email:noSubject'), 200, { oneLine: true }),
            color: eventColor(record.lastEvent),
            fields: [
              { name: t('email:fields.lastEvent'), value: event, inline: true },
              {
                name: t('email:fields.created'),
                value: `${created}\n${timeValue(record.createdAt, ctx.preferences.timezone, 'f', locale)}`,
                inline: true,
              },
              { name: t('email:fields.from'), value: record.from },
              { name: t('email:fields.to'), value: listMore(record.to, 10, t, locale) },
            ],
            footer: t('email:footer', { id: record.id }),
            timestamp: timeValue(record.createdAt, ctx.preferences.timezone, 'f', locale),
          },
        ],
      };
      return { reply, data: record };
    },
  });
}
