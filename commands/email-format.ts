// Pure helpers for /email send and /email status: address checks, the HTML body built from user
// text (escaped, paragraphs from blank lines) and how each delivery event reads.
import type { Color } from '../src/core/reply.ts';
import { ownEntry } from '../src/domain/lookup.ts';
import { escapeHtml } from '../src/domain/text.ts';
import { email as messages } from '../src/i18n/email.ts';
import { english, type Translate } from '../src/i18n/translate.ts';

/** What buildCommands passes to both /email commands. */
export interface EmailCommandOptions {
  users: readonly string[];
  roles: readonly string[];
  /** Allowed recipient domains (lower case); empty means any. */
  domains: readonly string[];
}

// One plain address (no display name, no list): local part, @, a domain with a dot.
const ADDRESS_RE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && ADDRESS_RE.test(text) && !text.includes('..');
}

/** The lower-cased domain of an address. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** True when `allowed` is empty (no restriction) or holds the address's domain exactly. */
export function isAllowedDomain(address: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const domain = domainOf(address);
  return allowed.some((d) => d.toLowerCase() === domain);
}

/** User text as HTML: every character escaped, blank lines start paragraphs, single newlines break lines. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}

/** Resend's ids are UUIDs. */
export const EMAIL_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Resend's last_event values (docs/SERVICES.md S1), by how the sender should feel about them.
const EVENT_COLORS: Readonly<Record<string, Color>> = {
  delivered: 'success',
  opened: 'success',
  clicked: 'success',
  bounced: 'error',
  failed: 'error',
  complained: 'error',
  suppressed: 'error',
  canceled: 'warning',
  delivery_delayed: 'warning',
};

export function eventColor(event: string | undefined): Color {
  return ownEntry(EVENT_COLORS, event) ?? 'info';
}

type EventName = keyof (typeof messages)['en-GB']['events'];
const isEventName = (event: string): event is EventName => Object.hasOwn(messages['en-GB'].events, event);

/**
 * "delivery_delayed" -> "delivery delayed" ("Zustellung verzögert"); undefined -> "not sent yet";
 * an event the catalogue does not name as it comes, its underscores as spaces.
 */
export function describeEvent(event: string | undefined, t: Translate = english): string {
  if (event === undefined) return t('email:events.notSent');
  return isEventName(event) ? t(`email:events.${event}`) : event.replaceAll('_', ' ');
}
