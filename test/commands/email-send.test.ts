import { describe, expect, it, vi } from 'vitest';
import { createEmailSendCommand } from '../../commands/email-send.ts';
import { UserError, userMessageFor } from '../../src/errors.ts';
import type { EmailClient, EmailRecord } from '../../src/services/email/client.ts';
import {
  createContext,
  DISCORD_MEMBER,
  expectWellFormed,
  field,
  invoke,
  onlyEmbed,
  SERVICE_ERROR_CODES,
  serviceError,
  SLACK_MEMBER,
} from './context.ts';

const ID = '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794';

function fakeEmail(send: () => Promise<{ id: string }> = async () => ({ id: ID })) {
  return {
    send: vi.fn<EmailClient['send']>(() => send()),
    get: vi.fn<EmailClient['get']>(async (): Promise<EmailRecord | undefined> => undefined),
    close: vi.fn(async () => {}),
  } satisfies EmailClient;
}

const open = createEmailSendCommand({ users: [], roles: [], domains: [] });
const INPUT = {
  to: 'ops@example.com',
  subject: 'Deploy done',
  body: 'The release is live.\n\nThanks, <b>all</b>!',
};

describe('/email send', () => {
  it('sends the body as escaped HTML with one idempotency key per invocation and replies with the id', async () => {
    const email = fakeEmail();
    const ctx = createContext({ services: { email } });
    const reply = await invoke(open, INPUT, ctx);

    expect(email.send).toHaveBeenCalledWith(
      {
        to: ['ops@example.com'],
        subject: 'Deploy done',
        html: '<p>The release is live.</p>\n<p>Thanks, &lt;b&gt;all&lt;/b&gt;!</p>',
        idempotencyKey: expect.stringMatching(/^herald-[0-9a-f-]{36}$/),
      },
      { signal: expect.any(AbortSignal) },
    );
    expectWellFormed(reply);
    expect(reply.ephemeral).toBe(true);
    expect(open.ephemeral).toBe(true);
    expect(onlyEmbed(reply).color).toBe('success');
    expect(field(reply, 'Id')).toBe(ID);
    expect(field(reply, 'To')).toBe('ops@example.com');
    expect(onlyEmbed(reply).footer).toBe(`Follow its delivery with /email status ${ID}`);
    expect(reply.text).toBe(`Email sent to ops@example.com (id ${ID}).`);
  });

  it.each([
    ['an address without a domain', { ...INPUT, to: 'ops@localhost' }],
    ['two addresses', { ...INPUT, to: 'a@example.com,b@example.com' }],
    ['a mention instead of an address', { ...INPUT, to: '<@331245678901234567>' }],
    ['an empty subject', { ...INPUT, subject: ' ' }],
    ['a subject over 200 characters', { ...INPUT, subject: 's'.repeat(201) }],
    ['an empty body', { ...INPUT, body: '' }],
    ['a body over 5,000 characters', { ...INPUT, body: 'b'.repeat(5001) }],
  ])('rejects %s without sending', async (_name, input) => {
    const email = fakeEmail();
    await expect(invoke(open, input, createContext({ services: { email } }))).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(email.send).not.toHaveBeenCalled();
  });

  it('refuses a recipient outside EMAIL_ALLOWED_DOMAINS, naming the allowed ones', async () => {
    const email = fakeEmail();
    const limited = createEmailSendCommand({ users: [], roles: [], domains: ['example.com', 'example.org'] });
    const failure = invoke(
      limited,
      { ...INPUT, to: 'someone@gmail.com' },
      createContext({ services: { email } }),
    );
    await expect(failure).rejects.toMatchObject({ code: 'forbidden' });
    await expect(failure).rejects.toThrow(
      'herald may only send email to addresses at example.com, example.org.',
    );
    expect(email.send).not.toHaveBeenCalled();

    await invoke(limited, { ...INPUT, to: 'Ops@Example.org' }, createContext({ services: { email } }));
    expect(email.send).toHaveBeenCalledTimes(1);
  });

  it('lets only the operator send while EMAIL_ALLOWED_USERS is empty', async () => {
    const email = fakeEmail();
    const failure = invoke(open, INPUT, createContext({ services: { email }, actor: SLACK_MEMBER }));
    await expect(failure).rejects.toMatchObject({ code: 'forbidden' });
    await expect(failure).rejects.toThrow(
      /ask an admin to add you \(user id U04ABCDEF12\) to EMAIL_ALLOWED_USERS/,
    );
    expect(email.send).not.toHaveBeenCalled();
  });

  it('lets a listed user or role send', async () => {
    const email = fakeEmail();
    const byUser = createEmailSendCommand({ users: [SLACK_MEMBER.id], roles: [], domains: [] });
    const byRole = createEmailSendCommand({ users: [], roles: [DISCORD_MEMBER.roles[0]!], domains: [] });
    await invoke(byUser, INPUT, createContext({ services: { email }, actor: SLACK_MEMBER }));
    await invoke(byRole, INPUT, createContext({ services: { email }, actor: DISCORD_MEMBER }));
    expect(email.send).toHaveBeenCalledTimes(2);
  });

  it.each(SERVICE_ERROR_CODES)('lets a %s service error through to the dispatcher', async (code) => {
    const error = serviceError('email', 'send', code);
    const email = fakeEmail(() => Promise.reject(error));
    await expect(invoke(open, INPUT, createContext({ services: { email } }))).rejects.toBe(error);
  });
});

describe('/email send in German and French', () => {
  it('confirms a sent email in German', async () => {
    const reply = await invoke(
      open,
      INPUT,
      createContext({ services: { email: fakeEmail() }, language: 'de' }),
    );
    expect(reply.text).toBe(`E-Mail an ops@example.com gesendet (ID ${ID}).`);
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('E-Mail gesendet');
    expect(embed.fields!.map((f) => f.name)).toEqual(['An', 'Betreff', 'ID']);
    expect(embed.footer).toBe(`Verfolge die Zustellung mit /email status ${ID}`);
  });

  it('refuses a recipient outside EMAIL_ALLOWED_DOMAINS in French, and keeps the English for the logs', async () => {
    const limited = createEmailSendCommand({ users: [], roles: [], domains: ['example.com'] });
    const ctx = createContext({ services: { email: fakeEmail() }, language: 'fr' });
    const failure: unknown = await invoke(limited, { ...INPUT, to: 'someone@gmail.com' }, ctx).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(UserError);
    expect((failure as UserError).message).toBe('herald may only send email to addresses at example.com.');
    expect(userMessageFor(failure, ctx.t, ctx.locale)).toBe(
      "herald ne peut envoyer d'e-mails qu'aux adresses de example.com.",
    );
  });
});
