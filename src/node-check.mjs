// The Node version herald runs on, checked before anything that needs it loads: package.json's
// `engines` is the one place that names it. Plain JavaScript with no Node-24-only syntax or
// import, so an older Node prints one line and exits 1 instead of a SyntaxError. start.mjs imports
// it first; `npm run job` and `npm run register` preload it with --import.
import { readFileSync } from 'node:fs';

const engines = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines;
const needed = Number(/(\d+)/.exec(engines.node)[1]);
if (Number(process.versions.node.split('.')[0]) < needed) {
  process.stderr.write(
    `herald needs Node.js ${needed} or newer, but this is Node.js ${process.versions.node}: ` +
      `install Node.js ${needed} (https://nodejs.org/en/download, or \`nvm install ${needed}\`) and run it again.\n`,
  );
  process.exit(1);
}
