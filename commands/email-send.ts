// /email send to subject body: one email through S1 (POST /emails), body sent as escaped HTML.
// Only allowed users may send, and only to allowed domains when EMAIL_ALLOWED_DOMAINS is set.
import { z } from 'zod';
import { defineCommand } from '../src/core/command.ts';
import { UserError } from '../src/errors.ts';
import { english } from '../src/i18n/translate.ts';
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
        const domains = opts.domains.join(', ');
        throw new UserError({
          code: 'forbidden',
          message: english('email:forbiddenDomain', { domains }),
          said: (t) => t('email:forbiddenDomain', { domains }),
        });
      }
      const { t } = ctx;
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
        text: t('email:sent.text', { to: input.to, id }),
        ephemeral: true,
        embeds: [
          {
            title: t('email:sent.title'),
            color: 'success',
            fields: [
              { name: t('email:fields.to'), value: input.to, inline: true },
              {
                name: t('email:fields.subject'),
                value: truncate(input.subject, 200, { oneLine: true }),
                inline: true,
              },
              { name: t('email:fields.id'), value: id },
            ],
            footer: t('email:sent.footer', { id }),
          },
        ],
      };
    },
  });
}
