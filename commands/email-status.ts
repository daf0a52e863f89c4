// /email status id: the record of a sent email from S1 (GET /emails/{id}) with its last event.
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { timeValue, type Reply } from '../src/core/reply.ts';
import type { CommandWatch } from '../src/core/watch-contract.ts';
import type { EmailRecord } from '../src/services/email/client.ts';
import { emailAccess } from './access.ts';
import { EMAIL_ID_RE, describeEvent, eventColor, type EmailCommandOptions } from './email-format.ts';
import { formatRelative, listWithMore, truncate } from './format.ts';

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
      const record = await ctx.services.email.get(input.id, { signal: ctx.signal });
      if (record === undefined) {
        return {
          text: `No email with id ${input.id} was found.`,
          outcome: 'not-found',
          ephemeral: true,
          embeds: [
            {
              title: 'Email not found',
              description: `The email service has no email with id ${input.id}. Check the id that /email send replied with.`,
              color: 'warning',
            },
          ],
        };
      }
      const event = describeEvent(record.lastEvent);
      const reply: Reply = {
        text: `Email ${record.id} to ${listWithMore(record.to, 3)}: ${event}.`,
        ephemeral: true,
        embeds: [
          {
            title: truncate(record.subject || '(no subject)', 200, { oneLine: true }),
            color: eventColor(record.lastEvent),
            fields: [
              { name: 'Last event', value: event, inline: true },
              {
                name: 'Created',
                value: `${formatRelative(record.createdAt, ctx.now())}\n${timeValue(record.createdAt, ctx.preferences.timezone)}`,
                inline: true,
              },
              { name: 'From', value: record.from },
              { name: 'To', value: listWithMore(record.to, 10) },
            ],
            footer: `Id ${record.id}`,
            timestamp: timeValue(record.createdAt, ctx.preferences.timezone),
          },
        ],
      };
      return { reply, data: record };
    },
  });
}
