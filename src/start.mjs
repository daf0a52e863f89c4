// The production entry: Node's compile cache keeps type-stripped, compiled modules between starts
// (faster and smaller start-up: `npm run bench -- startup`; docs/PERFORMANCE.md). Plain JavaScript
// on purpose: a .ts entry would load the type stripper before the cache is on.
//
// The V8 flags are in package.json's start script (bench/ reads them from there):
// --max-semi-space-size=2 caps the young generation at 2 x 2 MB, which keeps idle RSS under its
// bound (`npm run bench -- startup`); --heap-growing-percent=50 lets the old generation grow to
// 1.5 x what survived the last full collection instead of up to 4 x, which keeps a burst of 1,000
// commands under 200 MB (`npm run bench -- commands`).
//
// node-check.mjs first: on an older Node it prints the version needed and exits, before the
// Node-24-only import below (a static one would fail to link, as a SyntaxError, before any check).
import './node-check.mjs';

const { enableCompileCache } = await import('node:module');
enableCompileCache();
await import('./main.ts');
