// The interactive console's history, kept between sessions in a file as Hubot's shell keeps
// `.hubot_history`: one command per line, oldest first, at most HISTORY_SIZE lines, readable by
// the user only. Only an interactive session reads or writes it; piped input never touches it.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';

/** Lines kept in the file and in readline's memory. */
export const HISTORY_SIZE = 1000;
/** Where `npm start` keeps it: the working directory, the project root (git-ignored). */
export const HISTORY_FILE_NAME = '.herald_history';

/** The saved history, newest first as readline wants it; empty when there is none yet. */
export function readHistory(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-HISTORY_SIZE)
    .reverse();
}

/** Writes readline's history (newest first) to the file, oldest first; writes are serialised. */
export function createHistoryWriter(path: string, onError: (err: unknown) => void) {
  let last: Promise<void> = Promise.resolve();
  return {
    save(newestFirst: readonly string[]): Promise<void> {
      const text = `${newestFirst.slice(0, HISTORY_SIZE).toReversed().join('\n')}\n`;
      last = last.then(() => writeFile(path, text, { mode: 0o600 }).catch(onError));
      return last;
    },
    settled: (): Promise<void> => last,
  };
}
