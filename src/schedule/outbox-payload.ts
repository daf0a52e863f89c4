// A delivery as the outbox stores it: JSON, so a file's bytes travel as base64.
import type { Delivery } from './job.ts';

/** A file as the outbox keeps it (a Discord or a Slack one): JSON has no bytes, so they travel as base64. */
type StoredFile = Record<string, unknown> & { base64: string };

/** The JSON form of a delivery for the outbox (files' bytes as base64). */
export function toOutboxPayload(delivery: Delivery): unknown {
  if (delivery.kind !== 'webhook' || delivery.message.files === undefined) return delivery;
  const files: StoredFile[] = delivery.message.files.map(({ bytes, ...f }) => ({
    ...f,
    base64: Buffer.from(bytes).toString('base64'),
  }));
  return { ...delivery, message: { ...delivery.message, files } };
}

/** The delivery an outbox entry holds, files decoded. */
export function fromOutboxPayload(payload: unknown): Delivery {
  const delivery = payload as Delivery;
  if (delivery.kind !== 'webhook' || delivery.message.files === undefined) return delivery;
  const stored = delivery.message.files as unknown as StoredFile[];
  const files = stored.map(({ base64, ...f }) => ({
    ...f,
    bytes: new Uint8Array(Buffer.from(base64, 'base64')),
  })) as unknown as typeof delivery.message.files;
  return { ...delivery, message: { ...delivery.message, files } } as Delivery;
}
