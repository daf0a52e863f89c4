// What the analytics summary posts besides its embed and chart: with ANALYTICS_SUMMARY_SPEAK, the
// summary read aloud. It cannot lose the post: a synthesis that fails leaves one sentence saying so.
import type { JobContext } from '../src/schedule/job.ts';
import type { Reply } from '../src/core/reply.ts';
import { spokenText, withSpokenVersion } from '../src/speak.ts';
/**
 * The summary read aloud as analytics-summary.mp3 in the same post (ANALYTICS_SUMMARY_SPEAK);
 * when S5 is missing or fails, the post says so in one sentence instead.
 */
export function spokenBriefing(reply: Reply, ctx: JobContext): Promise<Reply> {
  const text = spokenText(reply.text);
  const req = { speech: ctx.services.speech, text, filename: 'analytics-summary.mp3', signal: ctx.signal };
  return withSpokenVersion(reply, req, (err) =>
    ctx.log.warn(
      { err, job: 'analytics-summary' },
      'the spoken briefing could not be made; posting without it',
    ),
  );
}
