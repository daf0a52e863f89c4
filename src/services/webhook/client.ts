import type { CallOptions } from '../../http/client.ts';
import type { ClientDeps, Closable } from '../deps.ts';

export interface WebhookConfig {
  /** Base URL carrying api/webhooks. */
  baseUrl: string;
  id: string;
  token: string;
}

export interface WebhookEmbed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
  timestamp?: string;
}

export interface WebhookMessage {
  content?: string;
  username?: string;
  embeds?: WebhookEmbed[];
}

export interface WebhookClient extends Closable {
  /** Resolves on 204. Mentions are always suppressed (allowed_mentions parse: []). */
  post(message: WebhookMessage, opts?: CallOptions): Promise<void>;
}

export declare function createWebhookClient(config: WebhookConfig, deps?: ClientDeps): WebhookClient;
