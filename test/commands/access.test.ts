import { describe, expect, it } from 'vitest';
import { allowList, emailAccess, hostAccess } from '../../commands/access.ts';
import { UserError } from '../../src/errors.ts';
import { createContext, DISCORD_MEMBER, OPERATOR, SLACK_MEMBER } from './context.ts';

const check = (users: string[], roles: string[]) =>
  allowList({
    users,
    roles,
    action: 'host',
    usersVariable: 'THING_USERS',
    rolesVariable: 'THING_ROLES',
  });

describe('allowList', () => {
  it('always lets the console operator in, even with empty lists', async () => {
    expect(await check([], [])(createContext({ actor: OPERATOR }))).toBeUndefined();
  });

  it('lets nobody else in while both lists are empty, and says which variable to set', async () => {
    const denied = await check([], [])(createContext({ actor: SLACK_MEMBER }));
    expect(denied).toBeInstanceOf(UserError);
    expect(denied!.code).toBe('forbidden');
    expect(denied!.message).toBe(
      'Nobody but the operator may use /host yet: ask an admin to add you (user id U04ABCDEF12) to THING_USERS.',
    );
  });

  it('lets in a listed user', async () => {
    expect(await check([SLACK_MEMBER.id], [])(createContext({ actor: SLACK_MEMBER }))).toBeUndefined();
  });

  it('lets in a holder of a listed role', async () => {
    expect(
      await check([], [DISCORD_MEMBER.roles[0]!])(createContext({ actor: DISCORD_MEMBER })),
    ).toBeUndefined();
  });

  it('refuses someone not listed, naming the roles variable on Discord', async () => {
    const denied = await check(['someone-else'], ['another-role'])(createContext({ actor: DISCORD_MEMBER }));
    expect(denied!.message).toBe(
      'You are not allowed to use /host: ask an admin to add you (user id 331245678901234567) to THING_USERS or one of your roles to THING_ROLES.',
    );
  });

  it('does not treat a display name as an id', async () => {
    const denied = await check([SLACK_MEMBER.displayName], [])(createContext({ actor: SLACK_MEMBER }));
    expect(denied).toBeInstanceOf(UserError);
  });

  it('points /email and /host at their own variables', async () => {
    const ctx = createContext({ actor: SLACK_MEMBER });
    const email = await emailAccess({ users: [], roles: [] })(ctx);
    const host = await hostAccess({ users: [], roles: [] })(ctx);
    expect(email!.message).toContain('EMAIL_ALLOWED_USERS');
    expect(host!.message).toContain('HOST_ALLOWED_USERS');
  });
});
