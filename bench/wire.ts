// Client-side wire time per weather query: from undici writing the request (headers sent) to the
// response's last byte (trailers), via undici's diagnostics channels. It covers the upstream, the
// loopback both ways and any delay before the bot's event loop reads the answer, so subtracting
// it gives a lower bound on what the bot adds (the server-side time gives the upper bound).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

interface UndiciRequest {
  path: string;
}

function queryOf(path: string): string {
  const at = path.indexOf('?');
  return at === -1 ? path : (new URLSearchParams(path.slice(at + 1)).get('q') ?? path.slice(0, at));
}

export interface WireTimes {
  /** Wire milliseconds per query since the last take(), summed over its requests. */
  take(): Map<string, number>;
  stop(): void;
}

export function trackWireTimes(): WireTimes {
  const sent = new WeakMap<object, number>();
  let times = new Map<string, number>();
  const onSend = (message: unknown) => {
    sent.set((message as { request: UndiciRequest }).request, performance.now());
  };
  const onDone = (message: unknown) => {
    const { request } = message as { request: UndiciRequest };
    const at = sent.get(request);
    if (at === undefined) return;
    const key = queryOf(request.path);
    times.set(key, (times.get(key) ?? 0) + performance.now() - at);
  };
  subscribe('undici:client:sendHeaders', onSend);
  subscribe('undici:request:trailers', onDone);
  return {
    take() {
      const out = times;
      times = new Map();
      return out;
    },
    stop() {
      unsubscribe('undici:client:sendHeaders', onSend);
      unsubscribe('undici:request:trailers', onDone);
    },
  };
}
