// S1 email client (Resend): POST /emails with an Idempotency-Key on every send, GET /emails/{id}.
// https://resend.com/docs/api-reference/emails/send-email
import { randomUUID } from 'node:crypto';
import { type CallOptions } from '../../http/client.ts';
import { path } from '../../http/path.ts';
import { ServiceError } from '../../errors.ts';
import { createServiceHttp, type ClientDeps, type Closable } from '../deps.ts';
import { EmailResponse, parseResendTimestamp, readResendError, SendEmailResponse } from './schemas.ts';

export interface EmailConfig {
  baseUrl: string;
  accessToken: string;
  /** Default sender, "Name <address>". */
  from: string;
}

export interface SendEmailInput {
  to: string[];
  subject: string;
  html: string;
  from?: string;
  /** Sent as Idempotency-Key; generated when absent. The same key is reused by every retry. */
  idempotencyKey?: string;
}

export interface EmailRecord {
  id: string;
  from: string;
  to: string[];
  subject: string;
  createdAt: Date;
  /** e.g. delivered, bounced, opened (docs/SERVICES.md S1 lists the set); undefined when not sent. */
  lastEvent: string | undefined;
}

export interface EmailClient extends Closable {
  send(input: SendEmailInput, opts?: CallOptions): Promise<{ id: string }>;
  /** undefined when the id is unknown. */
  get(id: string, opts?: CallOptions): Promise<EmailRecord | undefined>;
}

/** Resend accepts at most 50 recipients per email. */
const MAX_RECIPIENTS = 50;
/** Resend's Idempotency-Key length bounds. */
const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

const BARE_ADDRESS_RE = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;
const NAMED_ADDRESS_RE = /^[^<>]*<([^<>]+)>$/;

/** A bare address or "Name <address>", the two forms Resend accepts. */
function isEmailAddress(value: string): boolean {
  const text = value.trim();
  const named = NAMED_ADDRESS_RE.exec(text);
  return BARE_ADDRESS_RE.test(named ? (named[1] ?? '') : text);
}

function invalid(operation: string, reason: string): ServiceError {
  return new ServiceError({
    service: 'email',
    operation,
    code: 'invalid_request',
    message: `email.${operation} refused before sending: ${reason}`,
  });
}

function checkSend(input: SendEmailInput, from: string): void {
  if (input.to.length === 0 || input.to.length > MAX_RECIPIENTS)
    throw invalid('send', `to needs 1 to ${MAX_RECIPIENTS} addresses, got ${input.to.length}`);
  const bad = input.to.filter((a) => !isEmailAddress(a)).length;
  if (bad > 0) throw invalid('send', `${bad} recipient(s) are not email addresses`);
  if (!isEmailAddress(from)) throw invalid('send', 'from is not "Name <address>" or an address');
  if (input.subject.trim() === '') throw invalid('send', 'the subject is empty');
  if (input.html.trim() === '') throw invalid('send', 'the html body is empty');
  const key = input.idempotencyKey;
  if (key !== undefined && (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH))
    throw invalid('send', `the idempotency key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
}

export function createEmailClient(config: EmailConfig, deps: ClientDeps = {}): EmailClient {
  const http = createServiceHttp(deps, {
    secrets: [config.accessToken],
    service: 'email',
    baseUrl: config.baseUrl,
    headers: { authorization: `Bearer ${config.accessToken}` },
    readError: readResendError,
  });

  return {
    async send(input, opts) {
      const from = input.from ?? config.from;
      checkSend(input, from);
      const res = await http.send(
        {
          service: 'email',
          operation: 'send',
          method: 'POST',
          path: path`/emails`,
          body: { from, to: input.to, subject: input.subject, html: input.html },
          // Sent on every send, so that a retried POST cannot send the email twice.
          idempotencyKey: input.idempotencyKey ?? randomUUID(),
        },
        SendEmailResponse,
        opts,
      );
      return { id: res.id };
    },

    async get(id, opts) {
      // A dot-only id would be a dot-segment that URL parsing removes, reaching another endpoint.
      if (id.trim() === '' || /^\.+$/.test(id)) throw invalid('get', 'the id is empty or dots only');
      try {
        const rec = await http.send(
          { service: 'email', operation: 'get', method: 'GET', path: path`/emails/${id}` },
          EmailResponse,
          opts,
        );
        return {
          id: rec.id,
          from: rec.from,
          to: typeof rec.to === 'string' ? [rec.to] : rec.to,
          subject: rec.subject,
          createdAt: parseResendTimestamp(rec.created_at) as Date,
          lastEvent: rec.last_event ?? undefined,
        };
      } catch (err) {
        if (err instanceof ServiceError && err.code === 'not_found') return undefined;
        throw err;
      }
    },

    close: () => http.close(),
  };
}
