// The respond strategy on its own: which Discord call answers a deferred interaction. The calls
// themselves are proven against the fake Discord in adapter.test.ts.
import { describe, expect, it } from 'vitest';
import { responseStep, safeError } from '../../../adapters/discord/respond.ts';

describe('responseStep', () => {
  it.each([
    // responded, deferred private, kind, reply private → step
    [false, false, 'reply', false, 'edit'],
    [false, true, 'reply', true, 'edit'],
    [false, true, 'reply', false, 'edit'],
    [false, false, 'update', false, 'edit'],
    [false, false, 'reply', true, 'private-over-public'],
    [false, false, 'update', true, 'private-follow-up'],
    [true, false, 'reply', false, 'follow-up'],
    [true, false, 'reply', true, 'follow-up'],
    [true, true, 'update', true, 'follow-up'],
  ] as const)(
    'responded=%s, deferred private=%s, %s, reply private=%s → %s',
    (responded, isEphemeral, kind, ephemeral, step) => {
      expect(responseStep({ responded, isEphemeral, kind }, { ephemeral })).toBe(step);
    },
  );
});

describe('responseStep for a failure', () => {
  it('edits a public loading message into the error, and follows a public button message up privately', () => {
    const failure = { ephemeral: true, failureRef: '3fa9c01e' };
    expect(responseStep({ responded: false, isEphemeral: false, kind: 'reply' }, failure)).toBe('edit');
    expect(responseStep({ responded: false, isEphemeral: false, kind: 'update' }, failure)).toBe(
      'private-follow-up',
    );
  });
});

describe('responseStep for a user install', () => {
  // https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message:
  // an interaction from a user install not installed where it was used takes at most 5 follow-ups.
  const userOnly = { authorizing_integration_owners: { '1': '80351110224678912' } };
  const inGuildToo = {
    authorizing_integration_owners: { '0': '1187421520894746700', '1': '80351110224678912' },
  };
  const answered = { responded: true, isEphemeral: false, kind: 'reply' } as const;

  it('follows up while fewer than 5 follow-ups went out, then replaces the latest answer', () => {
    for (const followUps of [0, 1, 4]) {
      expect(responseStep({ ...answered, interaction: userOnly, followUps }, {})).toBe('follow-up');
    }
    expect(responseStep({ ...answered, interaction: userOnly, followUps: 5 }, {})).toBe('edit');
  });

  it('keeps following up where herald is installed in the guild as well', () => {
    expect(responseStep({ ...answered, interaction: inGuildToo, followUps: 9 }, {})).toBe('follow-up');
  });
});

describe('safeError', () => {
  it('keeps name, status and code, and redacts the bot token from the message', () => {
    const token = 'test-bot-token.not-real.0123456789abcdefghijklmnop';
    const source = Object.assign(new Error(`401 for Bot ${token}`), { status: 401, code: 0, token });
    source.name = 'DiscordAPIError';
    const safe = safeError(source, token);
    expect(safe.message).not.toContain(token);
    expect(safe).toMatchObject({ name: 'DiscordAPIError', status: 401, code: 0 });
    expect(Object.keys(safe)).not.toContain('token');
  });

  it("keeps Discord's own message of a failed webhook call, with any token redacted", () => {
    const token = 'test-bot-token.not-real.0123456789abcdefghijklmnop';
    const source = Object.assign(new Error('webhook.edit failed: not_found (HTTP 404)'), {
      status: 404,
      code: 'not_found',
      providerMessage: `Unknown Webhook (10015) near ${token}`,
    });
    const safe = safeError(source, token);
    expect(safe).toMatchObject({ status: 404, code: 'not_found' });
    expect((safe as { providerMessage?: string }).providerMessage).toMatch(
      /^Unknown Webhook \(10015\) near /,
    );
    expect(JSON.stringify(safe)).not.toContain(token);
  });
});
