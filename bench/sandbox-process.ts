// The sandbox alone in its own process, for measurements that must not share the bot's thread
// (bench/command-overhead.ts): it sends its address to the parent and serves until killed.
import { SANDBOX_CREDENTIAL } from '../src/sandbox/resolve.ts';
import { startUpstream } from './upstream.ts';

const upstream = await startUpstream({ latencyMs: 50, credential: SANDBOX_CREDENTIAL });
process.send?.({ url: upstream.url });
