// Simulated GA4 Data API v1beta (docs/SERVICES.md S2): POST /properties/{id}:runReport computes a
// believable, deterministic report for any numeric property: daily traffic with a weekly rhythm,
// a trend and noise, split over dimension values by their usual shares. Errors use Google's shape.
// Requests are read in analytics-request.ts, reports computed in analytics-report.ts.
// https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runReport
import { http, HttpResponse, type RequestHandler } from 'msw';
import { route, type HandlerOptions } from './layout.ts';
import { seededRandom } from './seeded-random.ts';
import { hourInZone, isoInZone, PROPERTY_SETTINGS } from './fixtures/analytics-model.ts';
import { googleError, HEADERS, invalid, parseRequest } from './analytics-request.ts';
import { buildReport } from './analytics-report.ts';

/** Property ids that make the simulator answer like GA4's edge cases (README, tests). */
export const ANALYTICS_MAGIC = Object.freeze({
  /** A report without rows or rowCount, as GA4 sends an empty result. */
  emptyPropertyId: '0',
  /** 403 PERMISSION_DENIED "User does not have sufficient permissions for this property." */
  forbiddenPropertyId: '403403403',
  /** 429 RESOURCE_EXHAUSTED "Exhausted property tokens per hour ...". */
  quotaPropertyId: '429429429',
  /** 500 INTERNAL and 503 UNAVAILABLE. */
  errorPropertyId: '500500500',
  unavailablePropertyId: '503503503',
});

interface AnalyticsHandlerOptions extends HandlerOptions {
  /** Clock that decides "today" in the property's time zone (tests fix it). */
  now?: () => number;
}

const PROPERTY_ID_DOC =
  'To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.';
const OAUTH_HINT =
  'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

/** The canned failures of the magic property ids: status, Google status, message. */
const MAGIC_ERRORS: Readonly<Record<string, [number, string, string]>> = {
  [ANALYTICS_MAGIC.forbiddenPropertyId]: [
    403,
    'PERMISSION_DENIED',
    `User does not have sufficient permissions for this property. ${PROPERTY_ID_DOC}`,
  ],
  [ANALYTICS_MAGIC.quotaPropertyId]: [
    429,
    'RESOURCE_EXHAUSTED',
    'Exhausted property tokens per hour for a project per property. These quota tokens will return in under an hour. To learn more, see https://developers.google.com/analytics/devguides/reporting/data/v1/quotas',
  ],
  [ANALYTICS_MAGIC.errorPropertyId]: [500, 'INTERNAL', 'Internal error encountered.'],
  [ANALYTICS_MAGIC.unavailablePropertyId]: [503, 'UNAVAILABLE', 'The service is currently unavailable.'],
};

export function analyticsHandlers(opts: AnalyticsHandlerOptions = {}): RequestHandler[] {
  const now = opts.now ?? Date.now;
  return [
    http.post(route('analytics', '/properties/:resource'), async ({ request, params }) => {
      const resource = String(params.resource);
      if (!resource.endsWith(':runReport'))
        return googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
      const auth = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
      if (!auth)
        return googleError(
          401,
          'UNAUTHENTICATED',
          `Request is missing required authentication credential. ${OAUTH_HINT}`,
          'CREDENTIALS_MISSING',
        );
      if (opts.credential !== undefined && auth[1] !== opts.credential)
        return googleError(
          401,
          'UNAUTHENTICATED',
          `Request had invalid authentication credentials. ${OAUTH_HINT}`,
          'ACCESS_TOKEN_TYPE_UNSUPPORTED',
        );
      const property = resource.slice(0, -':runReport'.length);
      if (!/^\d+$/.test(property))
        return invalid(
          `Invalid property ID: ${property}. A numeric Property ID is required. ${PROPERTY_ID_DOC}`,
        );
      const magic = MAGIC_ERRORS[property];
      if (magic) return googleError(...magic);
      let body: unknown;
      try {
        body = JSON.parse(await request.text());
      } catch {
        return invalid('Invalid JSON payload received. Unexpected token.');
      }
      const settings = seededRandom('ga4-property', property).pick(PROPERTY_SETTINGS);
      const nowMs = now();
      const today = isoInZone(nowMs, settings.timeZone);
      const req = parseRequest(body, today);
      if (req instanceof Response) return req;
      const ctx = {
        ...settings,
        today,
        currentHour: hourInZone(nowMs, settings.timeZone),
        isEmpty: property === ANALYTICS_MAGIC.emptyPropertyId,
      };
      return HttpResponse.json(buildReport(property, req, ctx), { headers: HEADERS });
    }),
  ];
}
