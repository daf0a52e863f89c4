import type { CallOptions } from '../../http/client.ts';
import type { ClientDeps, Closable } from '../deps.ts';

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
  /** e.g. delivered, bounced, opened (API-NOTES.md lists the set); undefined when not sent. */
  lastEvent: string | undefined;
}

export interface EmailClient extends Closable {
  send(input: SendEmailInput, opts?: CallOptions): Promise<{ id: string }>;
  /** undefined when the id is unknown. */
  get(id: string, opts?: CallOptions): Promise<EmailRecord | undefined>;
}

export declare function createEmailClient(config: EmailConfig, deps?: ClientDeps): EmailClient;
