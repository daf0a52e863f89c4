import type { IncomingMessage, ServerResponse } from 'node:http';
import { LogLevel } from '@slack/bolt';
import { describe, expect, it, vi } from 'vitest';
import {
  createBoltLogger,
  createDispatchErrorHandler,
  describeSdkError,
} from '../../../adapters/slack/bolt-log.ts';
import { recordingLog, type LogLine } from '../../support/command-doubles.ts';
import { redactText } from '../../../src/redact.ts';

const SECRET = 'configured-secret-value-42';

describe('redactText on Slack credentials', () => {
  it('blanks configured secrets, Slack-shaped tokens, bearer values and response URLs', () => {
    const tokenLike = ['xo', 'xb-1-2-abc'].join(''); // assembled so the source holds no token-shaped literal
    const text = `a ${SECRET} b ${tokenLike} c Bearer abc.def d https://hooks.slack.com/commands/T1/2/xyz e`;
    expect(redactText(text, [SECRET])).toBe(
      'a [REDACTED] b [REDACTED] c Bearer [REDACTED] d https://hooks.slack.com/[REDACTED] e',
    );
  });
});

describe('describeSdkError', () => {
  it("keeps the type, code, status and Slack's error name, with a scrubbed message", () => {
    const err = Object.assign(new Error(`An API error occurred: invalid_auth for ${SECRET}`), {
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: 'invalid_auth' },
      statusCode: 200,
    });
    expect(describeSdkError(err, [SECRET])).toEqual({
      type: 'Error',
      message: 'An API error occurred: invalid_auth for [REDACTED]',
      code: 'slack_webapi_platform_error',
      status: 200,
      slackError: 'invalid_auth',
    });
  });
});

describe('createBoltLogger', () => {
  it("forwards Bolt's varargs to herald's logger, scrubbed, and honours Bolt's level", () => {
    const seen: { level: string; obj: object; msg: string }[] = [];
    const at = (level: string) => (obj: object, msg: string) => seen.push({ level, obj, msg });
    const logger = createBoltLogger(
      { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
      [SECRET],
    );
    logger.setName('bolt-app');
    logger.debug('dropped at info level');
    logger.warn('Failed to verify', SECRET);
    logger.error(new Error(`boom ${SECRET}`));
    logger.setLevel(LogLevel.DEBUG);
    logger.debug('now kept', { n: 1 });
    expect(logger.getLevel()).toBe(LogLevel.DEBUG);
    expect(seen).toEqual([
      { level: 'warn', obj: { sdk: 'bolt-app' }, msg: 'Failed to verify [REDACTED]' },
      {
        level: 'error',
        obj: { sdk: 'bolt-app', err: { type: 'Error', message: 'boom [REDACTED]' } },
        msg: 'boom [REDACTED]',
      },
      { level: 'debug', obj: { sdk: 'bolt-app' }, msg: 'now kept {"n":1}' },
    ]);
  });
});

describe('createDispatchErrorHandler', () => {
  const answerOf = (error: unknown, url: string) => {
    const lines: LogLine[] = [];
    const response = { writeHead: vi.fn(), end: vi.fn() };
    createDispatchErrorHandler(recordingLog(lines), [SECRET])({
      error: error as Error,
      logger: undefined as never,
      request: { method: 'POST', url } as IncomingMessage,
      response: response as unknown as ServerResponse,
    });
    return {
      lines,
      status: response.writeHead.mock.calls[0]?.[0] as number,
      ended: response.end.mock.calls.length,
    };
  };

  it('answers a request that failed in dispatch 500 and logs it scrubbed, with a cut path', () => {
    const { lines, status, ended } = answerOf(
      new Error(`dispatch failed for ${SECRET}`),
      `/slack/${'x'.repeat(300)}`,
    );
    expect([status, ended]).toEqual([500, 1]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'error', msg: 'slack.request_failed' });
    expect(JSON.stringify(lines[0])).not.toContain(SECRET);
    expect((lines[0]!.obj as { path: string }).path).toHaveLength(100);
  });

  it('answers 500 when given no error object at all, without throwing', () => {
    const { lines, status } = answerOf(null, '/slack/events');
    expect(status).toBe(500);
    expect(lines[0]).toMatchObject({ level: 'error', msg: 'slack.request_failed' });
  });
});
