// Attachments (the audio of /say) as files in the console's audio directory: unique, safe names;
// a failure to write is logged and answered with the path left out, never thrown.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { CommandLog } from '../../src/core/command.ts';
import type { Attachment } from '../../src/core/reply.ts';
import { AdapterError } from '../../src/errors.ts';

/** The name's last part, with anything but letters, digits, dot, dash and underscore replaced. */
function safeFileName(name: string): string {
  const base = basename(name)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '');
  return (base || 'attachment').slice(-80);
}

/** Writes the attachment under `dir` as `<UTC stamp>-<random>-<safe name>`; its path, or undefined. */
export async function saveAttachment(
  dir: string,
  attachment: Attachment,
  log: CommandLog,
): Promise<string | undefined> {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const path = resolve(
    dir,
    `${stamp}-${randomBytes(3).toString('hex')}-${safeFileName(attachment.filename)}`,
  );
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(path, attachment.bytes, { flag: 'wx' });
    return path;
  } catch (cause) {
    const err = new AdapterError({
      platform: 'console',
      code: 'upload_failed',
      message: 'could not save an attachment',
      cause,
    });
    log.error({ err, dir }, 'console.save_failed');
    return undefined;
  }
}
