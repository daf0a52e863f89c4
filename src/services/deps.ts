import type { CallRecord, HttpLog } from '../http/client.ts';
import type { HttpOptions } from '../http/policy.ts';

/** What every client factory takes besides its own config. */
export interface ClientDeps {
  log?: HttpLog;
  onCall?: (record: CallRecord) => void;
  httpOptions?: Partial<HttpOptions>;
  /** Clock for caches (tests use a fake one). */
  now?: () => number;
  random?: () => number;
}

export interface Closable {
  close(): Promise<void>;
}
