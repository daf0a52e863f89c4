// Discord's REST API for the interactions bench, in its own process as Discord is elsewhere: the
// edits of @original it answers must not share an event loop with the client that times the
// deferrals. Prints "ready <url>"; answers "edits" over IPC with the count, exits on "stop".
import { startRestSink } from './interactions-wire.ts';

const sink = await startRestSink();
process.on('message', (message) => {
  if (message === 'edits') process.send?.(sink.edits());
  if (message === 'stop') void sink.close().then(() => process.exit(0));
});
process.stdout.write(`ready ${sink.url}\n`);
