// The simulated Discord webhook's own object (Get Webhook with Token, GET /webhooks/{id}/{token},
// https://discord.com/developers/docs/resources/webhook#get-webhook-with-token) and Discord's
// answers for an unknown webhook or a wrong token, which executing it gives too (webhook.ts).
import { http, HttpResponse, type RequestHandler } from 'msw';
import { route } from './layout.ts';

/** Inputs that make the simulator answer like Discord's failures (for demos and tests). */
export const WEBHOOK_MAGIC = Object.freeze({
  /** A webhook id that is always 404 Unknown Webhook (a deleted webhook). */
  unknownWebhookId: '1000000000000000404',
});

/** The channel every simulated webhook posts into. */
export const SIMULATED_CHANNEL_ID = '1234567890123456789';

export interface WebhookIdentity {
  /** The webhook id the fake knows; any other id is 404 Unknown Webhook. Unset: any id but the magic one. */
  webhookId?: string;
  /** The token it accepts; unset: any. */
  credential?: string;
  /**
   * The guild its webhook object names. Unset: none (`guild_id: null`): a simulated webhook is in
   * no real server, so no link to a real-looking message is ever made for its posts.
   */
  guildId?: string;
}

/** Discord's 404 Unknown Webhook or 401 Invalid Webhook Token; undefined for the known webhook. */
export function webhookRefusal(opts: WebhookIdentity, id: string, token: string): Response | undefined {
  if (id === WEBHOOK_MAGIC.unknownWebhookId || (opts.webhookId !== undefined && id !== opts.webhookId)) {
    return HttpResponse.json({ message: 'Unknown Webhook', code: 10015 }, { status: 404 });
  }
  if (opts.credential !== undefined && token !== opts.credential) {
    return HttpResponse.json({ message: 'Invalid Webhook Token', code: 50027 }, { status: 401 });
  }
  return undefined;
}

/** Get Webhook with Token: the webhook object without its user, as Discord answers it. */
export function webhookObjectHandler(opts: WebhookIdentity): RequestHandler {
  return http.get(route('webhook', '/:id/:token'), ({ params }) => {
    const id = String(params.id);
    const token = String(params.token);
    return (
      webhookRefusal(opts, id, token) ??
      HttpResponse.json({
        application_id: null,
        avatar: null,
        channel_id: SIMULATED_CHANNEL_ID,
        guild_id: opts.guildId ?? null,
        id,
        name: 'herald',
        type: 1,
        token,
      })
    );
  });
}
