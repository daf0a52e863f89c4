// The short form of /schedule add: to:, tz: and preview: are /schedule's wherever they are typed on
// the line, unless the scheduled command has an option of that name; then one sentence says where
// to put them. The rest of the command line is kept as typed. A command line given in its own
// field (keyed, Discord's option, a form) is read the same way.
import { describe, expect, it } from 'vitest';
import { takeTrailingOptions } from '../../commands/schedule-line.ts';
import { UserError } from '../../src/errors.ts';
import { readAddText } from '../support/schedule-line.ts';

const weatherOptions = ['city', 'units', 'speak'];

describe('the short form of /schedule add', () => {
  it('takes to:, tz: and preview: typed after the command line as the schedule’s', () => {
    expect(
      readAddText(
        '"every day at 07:30" /weather Oslo to:ops units:imperial tz:Europe/Berlin',
        weatherOptions,
      ),
    ).toEqual({
      when: 'every day at 07:30',
      command: '/weather Oslo units:imperial',
      to: 'ops',
      tz: 'Europe/Berlin',
    });
    expect(readAddText('"every day at 07:30" /weather Oslo preview:yes', weatherOptions)).toEqual({
      when: 'every day at 07:30',
      command: '/weather Oslo',
      preview: 'yes',
    });
  });

  it('takes thread:, mode:, skip: and ping: typed after the command line as the schedule’s too', () => {
    expect(
      readAddText(
        '"every weekday at 07:30" /weather Oslo thread:yes skip:holidays:de ping:<@&500000000000000009>',
        weatherOptions,
      ),
    ).toMatchObject({
      when: 'every weekday at 07:30',
      command: '/weather Oslo',
      thread: 'yes',
      skip: 'holidays:de',
      ping: '<@&500000000000000009>',
    });
    expect(readAddText('hourly /weather Oslo mode:edit', weatherOptions)).toMatchObject({
      command: '/weather Oslo',
      mode: 'edit',
    });
  });

  it('keeps the command line as typed around them: quotes, spacing and a quoted value of its own', () => {
    expect(
      readAddText('daily /jobs what:"rust  developer" to:"ops" where:Berlin   country:de', [
        'what',
        'where',
        'country',
      ]),
    ).toEqual({
      when: 'daily',
      to: 'ops',
      command: '/jobs what:"rust  developer" where:Berlin   country:de',
    });
    // Inside a quoted value, "to:" is the command's text.
    expect(readAddText('daily /geocode "to:ops lane"', ['query', 'limit'])).toEqual({
      when: 'daily',
      command: '/geocode "to:ops lane"',
    });
  });

  it('refuses in one sentence a name the command has too, typed after it', () => {
    const read = () => readAddText('daily /email send to:ada@example.com subject:hi', ['to', 'subject']);
    expect(read).toThrow(UserError);
    expect(read).toThrow(
      `to: after the command line is also the command's own option, which a schedule cannot tell from its own; put /schedule's to: before the command line, or in its own field.`,
    );
    // Before the command line it is the schedule's.
    expect(readAddText('to:ops daily /voices', [])).toEqual({
      to: 'ops',
      when: 'daily',
      command: '/voices',
    });
  });

  it('refuses an option given twice, before and after the command line', () => {
    expect(() => readAddText('to:ops daily /weather Oslo to:alerts', weatherOptions)).toThrow(
      'The option to is given twice.',
    );
  });

  it('reads only: and alert: after the command line too, when: before it only, and names the options of /schedule add', () => {
    expect(
      readAddText('"daily at 07:00" /forecast Zocca only:new alert:"below 0"', ['city', 'units']),
    ).toEqual({ when: 'daily at 07:00', command: '/forecast Zocca', only: 'new', alert: 'below 0' });
    // when: after the command line is the command's text.
    expect(readAddText('daily /weather Oslo when:now', weatherOptions)?.command).toBe(
      '/weather Oslo when:now',
    );
    // Before the command line, the shared grammar binds /schedule add's own options.
    expect(() => readAddText('colour:red daily /voices')).toThrow(
      '/schedule add has no option "colour"; its options are when, command, to, tz, only, alert, preview, mode, thread, skip, ping (put words holding ":" in quotes).',
    );
  });

  it('reads a command line given in its own field the same way: keyed, Discord’s option, a form', () => {
    // Typed keyed, as a form's submit is.
    expect(readAddText('when:daily command:"/weather Oslo to:ops units:imperial"', weatherOptions)).toEqual({
      when: 'daily',
      command: '/weather Oslo units:imperial',
      to: 'ops',
    });
    // Discord's options arrive as a record.
    const discord = { when: 'daily', command: '/weather Oslo tz:Asia/Tokyo', to: 'ops' };
    expect(takeTrailingOptions(discord, weatherOptions)).toEqual({
      when: 'daily',
      command: '/weather Oslo',
      to: 'ops',
      tz: 'Asia/Tokyo',
    });
    expect(() => takeTrailingOptions({ ...discord, tz: 'UTC' }, weatherOptions)).toThrow(
      'The option tz is given twice.',
    );
    expect(() =>
      takeTrailingOptions({ when: 'daily', command: '/settings tz:Asia/Tokyo' }, ['tz', 'units']),
    ).toThrow(/^tz: after the command line is also the command's own option/);
    // The first word is the command, whatever it is called; none of it is an option.
    expect(takeTrailingOptions({ command: 'voices' }, [])).toEqual({ command: 'voices' });
  });
});
