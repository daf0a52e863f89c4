// Reusable access checks (sapphire's preconditions, simplified): each returns a UserError to deny.
// The console operator always passes; an empty allowlist lets nobody else in, which is the safe
// default for a bot that joins public servers.
import type { AccessCheck } from '../src/core/command.ts';
import { refusal } from '../src/errors.ts';
import { type Translate } from '../src/i18n/translate.ts';

interface AllowListOptions {
  /** Platform user ids allowed in. */
  users: readonly string[];
  /** Discord role ids allowed in. */
  roles: readonly string[];
  /** What the check guards, completing "You are not allowed to <action>" (src/i18n/access.ts). */
  action: 'schedules' | 'email' | 'host';
  /** The variables an admin edits, for the hint: EMAIL_ALLOWED_USERS. */
  usersVariable: string;
  rolesVariable: string;
}

/** Lets in the operator, the listed users and holders of the listed roles. */
export function allowList(opts: AllowListOptions): AccessCheck {
  const users = new Set(opts.users);
  const roles = new Set(opts.roles);
  return (ctx) => {
    const { actor } = ctx;
    if (actor.isOperator === true) return undefined;
    if (users.has(actor.id) || actor.roles.some((role) => roles.has(role))) return undefined;
    const say = (t: Translate) =>
      t(users.size === 0 && roles.size === 0 ? 'access:nobody' : 'access:denied', {
        action: t(`access:actions.${opts.action}`),
        user: actor.id,
        users: opts.usersVariable,
        roles: actor.platform === 'discord' ? t('access:roleHint', { variable: opts.rolesVariable }) : '',
      });
    return refusal(say, 'forbidden');
  };
}

/** /email send and /email status: a record shows recipients and subjects, so both are guarded. */
export function emailAccess(opts: { users: readonly string[]; roles: readonly string[] }): AccessCheck {
  return allowList({
    users: opts.users,
    roles: opts.roles,
    action: 'email',
    usersVariable: 'EMAIL_ALLOWED_USERS',
    rolesVariable: 'EMAIL_ALLOWED_ROLES',
  });
}

/** /host: host intelligence is for the people who run the infrastructure. */
export function hostAccess(opts: { users: readonly string[]; roles: readonly string[] }): AccessCheck {
  return allowList({
    users: opts.users,
    roles: opts.roles,
    action: 'host',
    usersVariable: 'HOST_ALLOWED_USERS',
    rolesVariable: 'HOST_ALLOWED_ROLES',
  });
}
