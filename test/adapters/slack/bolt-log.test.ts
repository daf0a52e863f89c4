import { LogLevel } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createBoltLogger, describeSdkError } from '../../../adapters/slack/bolt-log.ts';
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
