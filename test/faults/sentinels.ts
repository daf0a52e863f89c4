// The sentinel credentials of the sentinel suite and the searches for them: whole, encoded, by
// random core, or as any run of 8 characters (a credential cut in two is still a leak).
import { randomBytes } from 'node:crypto';
import type { RecordedRequest } from '../support/sandbox-server.ts';
import type { Credentials } from './fault-cells.ts';

/** The random part alone is searched too, in case a prefix was cut or changed on the way. */
function sentinel(name: string): string {
  return `sentinel-${name}-${randomBytes(10).toString('hex')}`;
}

export const SENTINELS: Credentials = {
  emailToken: sentinel('email'),
  analyticsToken: sentinel('analytics'),
  weatherKey: sentinel('weather'),
  geocodingKey: sentinel('geocoding'),
  speechKey: sentinel('speech'),
  hostscanKey: sentinel('hostscan'),
  webhookToken: sentinel('webhook'),
  jobsAppId: sentinel('jobsappid'),
  jobsApiKey: sentinel('jobskey'),
};

/** Every sentinel, encoded or not, or its random core, found in `text`: by credential name. */
export function sentinelsIn(text: string): string[] {
  return (Object.entries(SENTINELS) as [string, string][])
    .filter(([, value]) => {
      const core = value.slice(value.lastIndexOf('-') + 1);
      return text.includes(value) || text.includes(encodeURIComponent(value)) || text.includes(core);
    })
    .map(([name]) => name);
}

/** Where each service's credential travels: query string, headers or (S7) the path. */
export function carried(requests: readonly RecordedRequest[]): string {
  return requests.map((r) => `${r.url}\n${JSON.stringify(r.headers)}`).join('\n');
}

export const CARRIES: Readonly<Record<string, readonly (keyof Credentials)[]>> = {
  email: ['emailToken'],
  analytics: ['analyticsToken'],
  weather: ['weatherKey'],
  geocoding: ['geocodingKey'],
  speech: ['speechKey'],
  hostscan: ['hostscanKey'],
  webhook: ['webhookToken'],
  jobSearch: ['jobsAppId', 'jobsApiKey'],
};

/**
 * Every sentinel of which a run of RUN characters appears in `text`, with the run: a cut key is
 * still a leak. Runs inside the readable prefix (`sentinel-hostscan-`) are words this file's own
 * path and the service names hold; every other run reaches into the random part.
 */
export const RUN = 8;
export function runsIn(text: string): string[] {
  return (Object.entries(SENTINELS) as [string, string][]).flatMap(([name, value]) => {
    const prefix = value.slice(0, value.lastIndexOf('-') + 1);
    for (let at = 0; at + RUN <= value.length; at++) {
      const run = value.slice(at, at + RUN);
      if (!prefix.includes(run) && text.includes(run)) return [`${name}: ${run}`];
    }
    return [];
  });
}

/** The credential a request carries, wherever its service puts it (docs/SERVICES.md). */
export function credentialOf(request: Request): string {
  const url = new URL(request.url);
  const q = url.searchParams;
  return (
    request.headers.get('x-api-key') ??
    request.headers.get('xi-api-key') ??
    request.headers.get('authorization')?.replace(/^Bearer\s+/i, '') ??
    q.get('appid') ??
    q.get('access_token') ??
    q.get('app_key') ??
    url.pathname.split('/').at(-1)!
  );
}
