// The chart renderer: a child process that turns a chart's SVG into PNG bytes with resvg
// (@resvg/resvg-js: a prebuilt N-API binary per platform, no build step), using the DejaVu Sans
// files of the dejavu-fonts-ttf package: no system font is looked up, so a chart looks the same on
// every machine. draw.ts starts it with the first chart and ends it when idle.
//
// It renders here, not on the bot's event loop, because resvg renders synchronously (tens of ms a
// chart, and a hostile chart is stopped by killing this process); and in its own process, not a
// worker thread, for its memory: everything resvg and the fonts took goes back to the system when
// it ends. Plain JavaScript on purpose: a .ts entry would load Node's type stripper, about 35 MB
// of this process' RSS (83 MB against 48 MB, measured). It starts with an empty environment, so
// no secret of the bot's is ever here.
//
// Protocol (types in draw.ts): {id, svg} in; {id, png | error, cpuMs, rssBytes} out.
import { createRequire } from 'node:module';
import resvg from '@resvg/resvg-js';

const require = createRequire(import.meta.url);

/** Font files, memory-mapped by resvg on each render rather than copied into every call. */
const FONT_FILES = [
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
];
/** The family the charts' SVG names, passed by draw.ts so it is written once. */
const FONT_FAMILY = process.argv[2];

// resvg's objects hold their pixmaps outside the JS heap, where V8 does not count them, so with no
// collection after a render RSS grew with every chart and never settled. A minor collection after
// each render frees them: RSS stays flat (`npm run bench -- charts`; docs/PERFORMANCE.md).
const gc = globalThis.gc;

function render(svg) {
  try {
    const renderer = new resvg.Resvg(svg, {
      font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: FONT_FAMILY },
      fitTo: { mode: 'original' },
    });
    return { png: renderer.render().asPng() };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

process.on('message', ({ id, svg }) => {
  const mark = process.cpuUsage();
  const outcome = render(svg);
  gc?.({ type: 'minor' });
  const used = process.cpuUsage(mark);
  process.send?.({
    id,
    ...outcome,
    cpuMs: (used.user + used.system) / 1000,
    rssBytes: process.memoryUsage.rss(),
  });
});

// The parent is gone (it exited, or ended this renderer): nothing is left to draw for.
process.on('disconnect', () => process.exit(0));
