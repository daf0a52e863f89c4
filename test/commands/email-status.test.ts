import { describe, expect, it, vi } from 'vitest';
import { writeTimes } from '../../src/render/time.ts';
import { createEmailStatusCommand } from '../../commands/email-status.ts';
import type { EmailClient, EmailRecord } from '../../src/services/email/client.ts';
import {
  createContext,
  expectWellFormed,
  field,
  invoke,
  onlyEmbed,
  SERVICE_ERROR_CODES,
  serviceError,
  SLACK_MEMBER,
} from './context.ts';

const RECORD: EmailRecord = {
  id: '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794',
  from: 'herald <herald@example.com>',
  to: ['ops@example.com'],
  subject: 'Deploy done',
  createdAt: new Date('2026-11-19T14:05:42.674Z'),
  lastEvent: 'delivered',
};

function fakeEmail(get: () => Promise<EmailRecord | undefined>) {
  return {
    send: vi.fn<EmailClient['send']>(async () => ({ id: RECORD.id })),
    get: vi.fn<EmailClient['get']>(() => get()),
    close: vi.fn(async () => {}),
  } satisfies EmailClient;
}

const status = createEmailStatusCommand({ users: [], roles: [] });

describe('/email status', () => {
  it('answers with from, to, subject, created time and the last event', async () => {
    const email = fakeEmail(async () => RECORD);
    const ctx = createContext({ services: { email } });
    const reply = await invoke(status, { id: RECORD.id }, ctx);

    expect(email.get).toHaveBeenCalledWith(RECORD.id, { signal: expect.any(AbortSignal) });
    expectWellFormed(reply);
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('Deploy done');
    expect(embed.color).toBe('success');
    expect(field(reply, 'Last event')).toBe('delivered');
    // A time value: each reader's own time on Discord and Slack, the reader's zone elsewhere.
    expect(writeTimes(field(reply, 'Created')!, 'plain')).toBe('3 days ago\nThu, 19 Nov 2026, 14:05 UTC');
    expect(writeTimes(field(reply, 'Created')!, 'discord')).toBe(
      `3 days ago\n<t:${Math.floor(RECORD.createdAt.getTime() / 1000)}:f>`,
    );
    expect(field(reply, 'From')).toBe('herald <herald@example.com>');
    expect(field(reply, 'To')).toBe('ops@example.com');
    expect(embed.footer).toBe(`Id ${RECORD.id}`);
    expect(reply.ephemeral).toBe(true);
    expect(reply.text).toBe(`Email ${RECORD.id} to ops@example.com: delivered.`);
  });

  it('colours a bounce as an error and says when nothing was sent yet', async () => {
    const bounced = await invoke(
      status,
      { id: RECORD.id },
      createContext({ services: { email: fakeEmail(async () => ({ ...RECORD, lastEvent: 'bounced' })) } }),
    );
    expect(onlyEmbed(bounced).color).toBe('error');
    const unsent = await invoke(
      status,
      { id: RECORD.id },
      createContext({ services: { email: fakeEmail(async () => ({ ...RECORD, lastEvent: undefined })) } }),
    );
    expect(field(unsent, 'Last event')).toBe('not sent yet');
  });

  it('answers an unknown id with a warning, not an error', async () => {
    const email = fakeEmail(async () => undefined);
    const reply = await invoke(
      status,
      { id: '00000000-0000-4000-8000-000000000000' },
      createContext({ services: { email } }),
    );
    expectWellFormed(reply);
    expect(onlyEmbed(reply).color).toBe('warning');
    expect(reply.text).toBe('No email with id 00000000-0000-4000-8000-000000000000 was found.');
    expect(reply.outcome).toBe('not-found');
  });

  it.each([['not-an-id'], ['49a3999c0ce14ea6ab68afcd6dc2e794'], ['../../domains'], ['']])(
    'rejects %j without a request',
    async (id) => {
      const email = fakeEmail(async () => RECORD);
      await expect(invoke(status, { id }, createContext({ services: { email } }))).rejects.toMatchObject({
        code: 'invalid_input',
      });
      expect(email.get).not.toHaveBeenCalled();
    },
  );

  it('is limited to the email allowlist too, since a record shows recipients', async () => {
    const email = fakeEmail(async () => RECORD);
    await expect(
      invoke(status, { id: RECORD.id }, createContext({ services: { email }, actor: SLACK_MEMBER })),
    ).rejects.toMatchObject({ code: 'forbidden' });
    expect(email.get).not.toHaveBeenCalled();
  });

  it.each(SERVICE_ERROR_CODES)('lets a %s service error through to the dispatcher', async (code) => {
    const error = serviceError('email', 'get', code);
    const email = fakeEmail(() => Promise.reject(error));
    await expect(invoke(status, { id: RECORD.id }, createContext({ services: { email } }))).rejects.toBe(
      error,
    );
  });
});

describe('/email status in German and French', () => {
  it('writes the record and its last event in German, with the age in German', async () => {
    const many: EmailRecord = {
      ...RECORD,
      subject: '',
      to: ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com'],
      lastEvent: 'delivery_delayed',
    };
    const ctx = createContext({ services: { email: fakeEmail(async () => many) }, language: 'de' });
    const reply = await invoke(status, { id: RECORD.id }, ctx);
    expect(reply.text).toBe(
      `E-Mail ${RECORD.id} an a@example.com, b@example.com, c@example.com und 1 weitere: Zustellung verzögert.`,
    );
    const embed = onlyEmbed(reply);
    expect(embed.title).toBe('(kein Betreff)');
    expect(embed.fields!.map((f) => f.name)).toEqual(['Letztes Ereignis', 'Erstellt', 'Von', 'An']);
    expect(field(reply, 'Erstellt')).toMatch(/^vor 3 Tagen\n/);
    expect(embed.footer).toBe(`ID ${RECORD.id}`);
  });

  it('answers an unknown id and an email not sent yet in French', async () => {
    const unknown = await invoke(
      status,
      { id: RECORD.id },
      createContext({ services: { email: fakeEmail(async () => undefined) }, language: 'fr' }),
    );
    expect(unknown.text).toBe(`Aucun e-mail avec l'identifiant ${RECORD.id} n'a été trouvé.`);
    expect(onlyEmbed(unknown).title).toBe('E-mail introuvable');
    const unsent = await invoke(
      status,
      { id: RECORD.id },
      createContext({
        services: { email: fakeEmail(async () => ({ ...RECORD, lastEvent: undefined })) },
        language: 'fr',
      }),
    );
    expect(unsent.text).toBe(`E-mail ${RECORD.id} à ops@example.com : pas encore envoyé.`);
    expect(field(unsent, 'Dernier événement')).toBe('pas encore envoyé');
    expect(field(unsent, 'Créé')).toMatch(/^il y a 3 jours\n/);
  });
});
