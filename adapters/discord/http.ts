// Discord's HTTP interactions endpoint: Discord POSTs each interaction, signed with Ed25519, to one
// URL, and any replica behind a load balancer answers in the HTTP response; no gateway session and
// no discord.js: the body is the raw interaction JSON (discord-api-types). A request without
// well-formed signature headers is refused before its body is read (herald's server reads it only
// once `admit` says so, src/health.ts), one whose signature does not verify before it is parsed.
// What follows the first answer goes through the interaction's webhook as in gateway mode (respond.ts).
// https://discord.com/developers/docs/interactions/receiving-and-responding#security-and-authorization
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
// Types only: this file is served before the rest of herald is loaded, so that a replica answers
// Discord's PING while the rest is still starting.
import type { APIInteraction, APIInteractionResponse } from 'discord-api-types/v10';
import type { HttpRoute } from '../../src/core/adapter.ts';
import type { CommandLog } from '../../src/core/command.ts';
import type { SendFirstAnswer } from './first-answers.ts';

/** A signed request older than this is refused: a captured one cannot be replayed later. */
export const SIGNATURE_MAX_AGE_MS = 5 * 60_000;
/** A timestamp this far ahead of our clock is refused too (clock skew beyond it is not Discord's). */
export const SIGNATURE_MAX_AHEAD_MS = 60_000;
/**
 * The largest interaction body taken. A button press carries its whole message (up to 6000
 * characters of embeds, 2000 of content, components); 256 KiB leaves room for resolved data.
 */
export const INTERACTION_BODY_MAX = 256 * 1024;
/** Discord waits 3 s for the first answer; one not ready by then is given up on. */
export const FIRST_ANSWER_DEADLINE_MS = 2_800;

// Discord's wire numbers for the PING this file answers itself, before the rest of herald is loaded.
const PING = 1;
const PONG = 1;

/** DISCORD_PUBLIC_KEY (64 hex digits, the raw Ed25519 key) as a key node:crypto verifies with. */
export function discordPublicKey(hex: string): KeyObject {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('a Discord public key is 64 hexadecimal digits');
  const x = Buffer.from(hex, 'hex').toString('base64url');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
}

const SIGNATURE_RE = /^[0-9a-fA-F]{128}$/;
const TIMESTAMP_RE = /^\d{1,12}$/;

/**
 * Whether the headers are well formed and the timestamp is within the window; the signature itself
 * is checked once the body is read (verifySignature). Cheap, so a flood of junk costs little.
 */
export function checkSignatureHeaders(
  signature: string | undefined,
  timestamp: string | undefined,
  nowMs: number,
): signature is string {
  if (signature === undefined || timestamp === undefined) return false;
  if (!SIGNATURE_RE.test(signature) || !TIMESTAMP_RE.test(timestamp)) return false;
  const ageMs = nowMs - Number(timestamp) * 1000;
  return ageMs <= SIGNATURE_MAX_AGE_MS && ageMs >= -SIGNATURE_MAX_AHEAD_MS;
}

/** Ed25519 over the timestamp followed by the raw body, as Discord signs it. */
export function verifySignature(key: KeyObject, signature: string, timestamp: string, body: Buffer): boolean {
  return verify(
    null,
    Buffer.concat([Buffer.from(timestamp, 'utf8'), body]),
    key,
    Buffer.from(signature, 'hex'),
  );
}

function send(res: ServerResponse, status: number, body?: unknown): Promise<void> {
  return new Promise((resolve) => {
    if (res.headersSent) {
      resolve();
      return;
    }
    if (body === undefined) {
      res.writeHead(status).end(() => resolve());
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body), () => resolve());
  });
}

export interface HttpInteractionsOptions {
  publicKey: KeyObject;
  log: CommandLog;
  now?: () => number;
  bodyMax?: number;
  firstAnswerDeadlineMs?: number;
}

function header(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Where verified interactions go: the adapter, which answers them through `answers`. */
export type Dispatch = (packet: APIInteraction) => void;

export interface HttpInteractions {
  /** Writes an interaction's first answer as its HTTP response (first-answers.ts builds the body). */
  respond: SendFirstAnswer;
  /** The interaction's handling ended: a request nothing answered gets 500. */
  finished: (interactionId: string) => void;
  /** The route herald's server serves at DISCORD_INTERACTIONS_PATH. */
  route: HttpRoute;
  /**
   * Hands verified interactions to `dispatch` from now on, first those that arrived while herald
   * was starting (each still within its first-answer deadline). The returned function detaches:
   * an interaction arriving after it is answered 503 at once (the replica is stopping).
   */
  attach(dispatch: Dispatch): () => void;
}

/**
 * The HTTP responses still owed, by interaction id. Each is given up on (503) at its deadline or
 * forgotten once its client is gone; `take` hands one over to be answered.
 */
function createOwed(log: CommandLog, deadlineMs: number) {
  const owed = new Map<string, ServerResponse>();
  return {
    has: (id: string) => owed.has(id),
    hold(id: string, res: ServerResponse): void {
      owed.set(id, res);
      const timer = setTimeout(() => {
        if (owed.get(id) !== res) return;
        owed.delete(id);
        log.warn({ interactionId: id }, 'discord.http_first_answer_late');
        void send(res, 503);
      }, deadlineMs);
      timer.unref();
      res.once('close', () => {
        clearTimeout(timer);
        if (owed.get(id) === res) owed.delete(id);
      });
    },
    take(id: string): ServerResponse | undefined {
      const res = owed.get(id);
      owed.delete(id);
      return res;
    },
  };
}

/** A verified request's interaction, or the status that refuses it (401 unsigned, 400 not JSON). */
function readInteraction(
  key: KeyObject,
  headers: IncomingHttpHeaders,
  body: Buffer,
): APIInteraction | 400 | 401 {
  const sig = header(headers['x-signature-ed25519']) ?? '';
  const ts = header(headers['x-signature-timestamp']) ?? '';
  if (!verifySignature(key, sig, ts, body)) return 401;
  try {
    return JSON.parse(body.toString('utf8')) as APIInteraction;
  } catch {
    return 400;
  }
}

/** The endpoint's request handler and the first answers that complete its responses. */
export function createHttpInteractions(opts: HttpInteractionsOptions): HttpInteractions {
  const now = opts.now ?? Date.now;
  const bodyMax = opts.bodyMax ?? INTERACTION_BODY_MAX;
  const owed = createOwed(opts.log, opts.firstAnswerDeadlineMs ?? FIRST_ANSWER_DEADLINE_MS);
  let dispatch: Dispatch | undefined;
  /** Interactions verified before the adapter attached, in their order of arrival. */
  let waiting: APIInteraction[] = [];
  let isDetached = false;

  function finished(interactionId: string): void {
    const res = owed.take(interactionId);
    if (!res) return;
    opts.log.warn({ interactionId }, 'discord.http_unanswered');
    void send(res, 500);
  }

  function deliver(packet: APIInteraction, to: Dispatch): void {
    try {
      to(packet);
    } catch (err) {
      opts.log.error({ err, interactionId: packet.id }, 'discord.http_dispatch_failed');
      finished(packet.id);
    }
  }

  /** A verified request: PONG to a PING; anything else is owed its first answer and handed on. */
  function receive(packet: APIInteraction, res: ServerResponse): Promise<void> | undefined {
    if ((packet.type as number) === PING) return send(res, 200, { type: PONG });
    if (typeof packet.id !== 'string' || owed.has(packet.id)) return send(res, 400);
    if (isDetached) return send(res, 503);
    owed.hold(packet.id, res);
    if (dispatch) deliver(packet, dispatch);
    else {
      waiting.push(packet);
      opts.log.debug({ interactionId: packet.id }, 'discord.http_held_until_started');
    }
    return undefined;
  }

  const route: HttpRoute = {
    admit(req) {
      if (req.method !== 'POST') return { status: 405, headers: { allow: 'POST' } };
      const sig = header(req.headers['x-signature-ed25519']);
      const ts = header(req.headers['x-signature-timestamp']);
      // Refused before the body is read: nothing of an unsigned or stale request is taken in.
      if (!checkSignatureHeaders(sig, ts, now())) return { status: 401 };
      return { maxBytes: bodyMax };
    },
    handle(req, res, body) {
      try {
        const packet = readInteraction(opts.publicKey, req.headers, body);
        if (packet === 401) void send(res, 401, { error: 'invalid request signature' });
        else if (packet === 400) void send(res, 400);
        else void receive(packet, res);
      } catch (err) {
        opts.log.error({ err }, 'discord.http_failed');
        void send(res, 500);
      }
    },
  };

  function attach(to: Dispatch): () => void {
    dispatch = to;
    isDetached = false;
    const arrived = waiting;
    waiting = [];
    // One whose deadline passed meanwhile was answered 503 and is no longer owed.
    for (const packet of arrived) if (owed.has(packet.id)) deliver(packet, to);
    return () => {
      if (dispatch !== to) return;
      dispatch = undefined;
      isDetached = true;
    };
  }

  function respond(interaction: APIInteraction, body: APIInteractionResponse): Promise<void> {
    const res = owed.take(interaction.id);
    if (!res) return Promise.reject(new Error('the interaction was already answered or timed out'));
    return send(res, 200, body);
  }

  return { respond, finished, attach, route };
}
