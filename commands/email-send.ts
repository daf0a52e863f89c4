// /email send to subject body: one email through S1 (POST /emails), body sent as escaped HTML.
// Only allowed users may send, and only to allowed domains when EMAIL_ALLOWED_DOMAINS is set.
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { UserError } from '../src/errors.ts';
import { emailAccess } from './access.ts';
import { isAllowedDomain, isEmailAddress, textToHtml, type EmailCommandOptions } from './email-format.ts';
import { quote, truncate } from './format.ts';

export function createEmailSendCommand(opts: EmailCommandOptions) {
  return defineCommand({
    name: 'email send',
    description: 'Send an email',
    options: z.object({
      to: z
        .string()
        .trim()
        .min(3)
        .max(254)
        .refine(isEmailAddress, {
          error: (issue) =>
            `${quote(String(issue.input), 60)} is not an email address; give one address such as ops@example.com.`,
        })
        .describe('Recipient address, e.g. ops@example.com'),
      subject: z.string().trim().min(1).max(200).describe('Subject line'),
      body: z.string().trim().min(1).max(5000).describe('Message text; a blank line starts a paragraph'),
    }),
    positional: ['to', 'subject', 'body'],
    needs: ['email'],
    access: [emailAccess(opts)],
    ephemeral: true,
    examples: ['/email send ops@example.com "Deploy done" The release is live.'],
    async handler(input, ctx) {
      if (!isAllowedDomain(input.to, opts.domains)) {
        throw new UserError({
          code: 'forbidden',
          message: `herald may only send email to addresses at ${opts.domains.join(', ')}.`,
        });
      }
      const { id } = await ctx.services.email.send(
        {
          to: [input.to],
          subject: input.subject,
          html: textToHtml(input.body),
          // One key per invocation: a retried request can never send the email twice.
          idempotencyKey: `herald-${ctx.invocationId}`,
        },
        { signal: ctx.signal },
      );
      return {
        text: `Email sent to ${input.to} (id ${id}).`,
        ephemeral: true,
        embeds: [
          {
            title: 'Email sent',
            color: 'success',
            fields: [
              { name: 'To', value: input.to, inline: true },
              { name: 'Subject', value: truncate(input.subject, 200, { oneLine: true }), inline: true },
              { name: 'Id', value: id },
            ],
            footer: `Follow its delivery with /email status ${id}`,
          },
        ],
      };
    },
  });
}
