// The short form of /schedule add: to:, tz: and preview: are /schedule's wherever they are typed on
// the line, unless the scheduled command has an option of that name; then one sentence says where
// to put them. The rest of the command line is kept as typed.
import { describe, expect, it } from 'vitest';
import { readShortForm } from '../../commands/schedule-line.ts';
import { UserError } from '../../src/errors.ts';

const weatherOptions = () => ['city', 'units', 'speak'];

describe('readShortForm', () => {
  it('takes to:, tz: and preview: typed after the command line as the schedule’s', () => {
    expect(
      readShortForm(
        '"every day at 07:30" /weather Oslo to:ops units:imperial tz:Europe/Berlin',
        weatherOptions,
      ),
    ).toEqual({
      when: 'every day at 07:30',
      command: '/weather Oslo units:imperial',
      to: 'ops',
      tz: 'Europe/Berlin',
    });
    expect(readShortForm('"every day at 07:30" /weather Oslo preview:yes', weatherOptions)).toEqual({
      when: 'every day at 07:30',
      command: '/weather Oslo',
      preview: 'yes',
    });
  });

  it('takes thread:, mode:, skip: and ping: typed after the command line as the schedule’s too', () => {
    expect(
      readShortForm(
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
    expect(readShortForm('hourly /weather Oslo mode:edit', weatherOptions)).toMatchObject({
      command: '/weather Oslo',
      mode: 'edit',
    });
  });

  it('keeps the command line as typed around them: quotes, spacing and a quoted value of its own', () => {
    expect(
      readShortForm('daily /jobs what:"rust  developer" to:"ops" where:Berlin   country:de', () => [
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
    expect(readShortForm('daily /geocode "to:ops lane"', () => ['query', 'limit'])).toEqual({
      when: 'daily',
      command: '/geocode "to:ops lane"',
    });
  });

  it('refuses in one sentence a name the command has too, typed after it', () => {
    const read = () =>
      readShortForm('daily /email send to:ada@example.com subject:hi', () => ['to', 'subject']);
    expect(read).toThrow(UserError);
    expect(read).toThrow(
      `to: after the command line is the command's own option; put /schedule's to: before the command line, or give the command as command:"…" to keep to: its own.`,
    );
    // Before the command line it is the schedule's.
    expect(readShortForm('to:ops daily /voices', () => [])).toEqual({
      to: 'ops',
      when: 'daily',
      command: '/voices',
    });
  });

  it('refuses an option given twice, before and after the command line', () => {
    expect(() => readShortForm('to:ops daily /weather Oslo to:alerts', weatherOptions)).toThrow(
      'The option to is given twice.',
    );
  });

  it('reads only:, alert: and when: before the command line only, and names the options from one table', () => {
    // After the command line, only: is the command's (here: an option /weather does not have).
    expect(readShortForm('daily /weather Oslo only:new', weatherOptions)?.command).toBe(
      '/weather Oslo only:new',
    );
    expect(() => readShortForm('colour:red daily /voices')).toThrow(
      '/schedule add has no option "colour" before the command; its options are when, to, tz, only, alert, preview, mode, thread, skip and ping.',
    );
  });
});
