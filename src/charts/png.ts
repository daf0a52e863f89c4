// SVG to PNG with resvg (@resvg/resvg-js: a prebuilt N-API binary per platform, no build step),
// using the DejaVu Sans files of the dejavu-fonts-ttf package: no system font is looked up, so a
// chart looks the same on every machine. Imported only through drawChart's dynamic import.
import { createRequire } from 'node:module';
import resvg from '@resvg/resvg-js';
import { FONT_FAMILY } from './svg.ts';

const require = createRequire(import.meta.url);

/** Font files, memory-mapped by resvg on each render rather than copied into every call. */
const FONT_FILES = [
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
];

export function svgToPng(svg: string): Uint8Array {
  const renderer = new resvg.Resvg(svg, {
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: FONT_FAMILY },
    fitTo: { mode: 'original' },
  });
  return renderer.render().asPng();
}
