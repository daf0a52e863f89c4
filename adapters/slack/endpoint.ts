// Slack's HTTP endpoint on herald's public server: which requests Bolt gets to read. Slack signs
// every request (`X-Slack-Signature: v0=` and 64 hex digits of HMAC-SHA256, over
// `X-Slack-Request-Timestamp`), so a request without those headers well formed, or with a timestamp
// outside the window, is refused before any of its body is read; Bolt then verifies the signature
// over the body the server read within the bound below.
// https://docs.slack.dev/authentication/verifying-requests-from-slack
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BufferedIncomingMessage } from '@slack/bolt';
import type { HttpRoute } from '../../src/core/adapter.ts';
import type { CommandLog } from '../../src/core/command.ts';

/** Bolt refuses requests older than this; a signature is remembered as long (plus the skew below). */
export const SLACK_SIGNATURE_WINDOW_MS = 5 * 60_000;
/** A request timestamp this far ahead of our clock is refused. */
export const SLACK_MAX_AHEAD_MS = 60_000;
/**
 * The largest body taken. A slash command is about a kilobyte; a button press (block_actions)
 * carries its message, whose blocks herald keeps under 12,000 characters of JSON (src/domain/slack.ts),
 * form-encoded, with its text and the state. A click on the Home tab carries the whole Home (up to
 * 100 blocks): a full one of 30 schedules measured 38 KB of view and 64 KB of body, form-encoded;
 * 256 KiB holds one of long commands with room, far below Bolt's 4 MB.
 */
export const SLACK_BODY_MAX = 256 * 1024;

const SIGNATURE_RE = /^v0=[0-9a-f]{64}$/;
const TIMESTAMP_RE = /^\d{1,12}$/;
/** What Slack posts: slash commands and interactivity form-encoded, events as JSON. */
const CONTENT_TYPES = new Set(['application/x-www-form-urlencoded', 'application/json']);

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

const UNSIGNED = { status: 401 } as const;

/** The route Bolt's HTTP receiver is served through. */
export function slackRoute(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  opts: { now: () => number; log: CommandLog },
): HttpRoute {
  return {
    admit(req) {
      if (req.method !== 'POST') return { status: 405, headers: { allow: 'POST' } };
      const contentType = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!CONTENT_TYPES.has(contentType)) return { status: 415 };
      const signature = header(req, 'x-slack-signature');
      const timestamp = header(req, 'x-slack-request-timestamp');
      if (signature === undefined || timestamp === undefined) return UNSIGNED;
      if (!SIGNATURE_RE.test(signature) || !TIMESTAMP_RE.test(timestamp)) return UNSIGNED;
      const aheadMs = Number(timestamp) * 1000 - opts.now();
      if (aheadMs > SLACK_MAX_AHEAD_MS) {
        // The replay window would otherwise start in the future.
        opts.log.warn({ timestamp }, 'slack.request_from_the_future');
        return UNSIGNED;
      }
      if (-aheadMs > SLACK_SIGNATURE_WINDOW_MS) return UNSIGNED;
      return { maxBytes: SLACK_BODY_MAX };
    },
    handle(req, res, body) {
      // Bolt reads a request whose body is already buffered as it is (its BufferedIncomingMessage).
      (req as BufferedIncomingMessage).rawBody = body;
      try {
        listener(req, res);
      } catch (err) {
        opts.log.error({ err }, 'slack.request_failed');
        if (!res.headersSent) res.writeHead(500).end();
      }
    },
  };
}
