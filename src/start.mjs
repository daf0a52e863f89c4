// The production entry: Node's compile cache keeps type-stripped, compiled modules between starts
// (about 150 ms and 20 MB less at start-up, measured by bench/). Plain JavaScript on purpose: a
// .ts entry would load the type stripper before the cache is on.
//
// The V8 flags are in package.json's start script (bench/ reads them from there):
// --max-semi-space-size=2 caps the young generation at 2 x 2 MB (idle RSS 92.7 MB against 95.8-96.4
// MB with 4, for 2.10 against 2.04 times a raw request's CPU per command, both within their bounds);
// --heap-growing-percent=50 lets the old generation grow to 1.5 x what survived the last full
// collection instead of up to 4 x, which keeps a burst of 1,000 commands under 200 MB.
//
// node-check.mjs first: on an older Node it prints the version needed and exits, before the
// Node-24-only import below (a static one would fail to link, as a SyntaxError, before any check).
import './node-check.mjs';

const { enableCompileCache } = await import('node:module');
enableCompileCache();
await import('./main.ts');
