// A reply's attachments as the files of a Discord message (sent as multipart by the caller): plain
// unique names, alt text within its limit, and the count and size limits, what does not fit noted.
// Files: https://discord.com/developers/docs/reference#uploading-files
import type { Reply } from '../core/reply.ts';
import { truncate } from '../domain/text.ts';
import { DISCORD_LIMITS } from '../domain/discord.ts';
import { FILES_MAX, UPLOAD_BYTES_MAX, type DiscordFile } from './discord-payload.ts';
import type { Notes } from './discord-text.ts';

/** A plain file name Discord keeps as it is (no path, no spaces), unique among `taken`. */
function safeFilename(name: string, taken: ReadonlySet<string>): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  const plain = truncate(cleaned === '' ? 'file' : cleaned, DISCORD_LIMITS.filename - 4);
  let unique = plain;
  for (let i = 2; taken.has(unique); i++) unique = `${i}-${plain}`;
  return unique;
}

interface RenderedFiles {
  files: DiscordFile[];
  /** The reply's filename to the name it is sent under (what an embed's `image` refers to). */
  names: Map<string, string>;
}

export function renderFiles(reply: Reply, maxFileBytes: number, notes: Notes): RenderedFiles {
  const out: RenderedFiles = { files: [], names: new Map() };
  const taken = new Set<string>();
  let total = 0;
  for (const attachment of reply.attachments ?? []) {
    const size = attachment.bytes.byteLength;
    if (out.files.length >= FILES_MAX || size > maxFileBytes || total + size > UPLOAD_BYTES_MAX) {
      notes.droppedFiles.push(safeFilename(attachment.filename, new Set()));
      continue;
    }
    const name = safeFilename(attachment.filename, taken);
    taken.add(name);
    total += size;
    if (!out.names.has(attachment.filename)) out.names.set(attachment.filename, name);
    const file: DiscordFile = { name, contentType: attachment.contentType, bytes: attachment.bytes };
    const description = attachment.description?.trim();
    if (description) file.description = truncate(description, DISCORD_LIMITS.fileDescription);
    out.files.push(file);
  }
  return out;
}
