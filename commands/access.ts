// Reusable access checks (sapphire's preconditions, simplified): each returns a UserError to deny.
// The console operator always passes; an empty allowlist lets nobody else in, which is the safe
// default for a bot that joins public servers.
import type { AccessCheck } from '../src/core/command.ts';
import { UserError } from '../src/errors.ts';

interface AllowListOptions {
  /** Platform user ids allowed in. */
  users: readonly string[];
  /** Discord role ids allowed in. */
  roles: readonly string[];
  /** What the check guards, completing "You are not allowed to <action>": "send email". */
  action: string;
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
    const roleHint = actor.platform === 'discord' ? ` or one of your roles to ${opts.rolesVariable}` : '';
    const denied =
      users.size === 0 && roles.size === 0
        ? `Nobody but the operator may ${opts.action} yet`
        : `You are not allowed to ${opts.action}`;
    return new UserError({
      code: 'forbidden',
      message: `${denied}: ask an admin to add you (user id ${actor.id}) to ${opts.usersVariable}${roleHint}.`,
    });
  };
}

/** /email send and /email status: a record shows recipients and subjects, so both are guarded. */
export function emailAccess(opts: { users: readonly string[]; roles: readonly string[] }): AccessCheck {
  return allowList({
    users: opts.users,
    roles: opts.roles,
    action: 'use /email',
    usersVariable: 'EMAIL_ALLOWED_USERS',
    rolesVariable: 'EMAIL_ALLOWED_ROLES',
  });
}

/** /host: host intelligence is for the people who run the infrastructure. */
export function hostAccess(opts: { users: readonly string[]; roles: readonly string[] }): AccessCheck {
  return allowList({
    users: opts.users,
    roles: opts.roles,
    action: 'use /host',
    usersVariable: 'HOST_ALLOWED_USERS',
    rolesVariable: 'HOST_ALLOWED_ROLES',
  });
}
