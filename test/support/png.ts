// Real PNG decoding for the chart tests (pngjs: a pure-JS decoder, so the check does not share
// code with the renderer), and pixel counts by colour.
import { PNG } from 'pngjs';

export interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: Uint8Array;
}

export function decodePng(bytes: Uint8Array): DecodedPng {
  const png = PNG.sync.read(Buffer.from(bytes));
  return { width: png.width, height: png.height, data: png.data };
}

export function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

/** How many opaque pixels are within `tolerance` (per channel) of the colour. */
export function countColour(img: DecodedPng, hex: string, tolerance = 24): number {
  const [r, g, b] = hexToRgb(hex);
  let count = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    if (
      img.data[i + 3]! === 255 &&
      Math.abs(img.data[i]! - r) <= tolerance &&
      Math.abs(img.data[i + 1]! - g) <= tolerance &&
      Math.abs(img.data[i + 2]! - b) <= tolerance
    )
      count++;
  }
  return count;
}

/** The number of distinct RGBA values: 1 for a blank image. */
export function distinctColours(img: DecodedPng): number {
  const seen = new Set<number>();
  const view = new DataView(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  for (let i = 0; i < img.data.length; i += 4) seen.add(view.getUint32(i));
  return seen.size;
}

/** Pixels whose alpha is below 255 (an opaque chart has none). */
export function translucentPixels(img: DecodedPng): number {
  let count = 0;
  for (let i = 3; i < img.data.length; i += 4) if (img.data[i]! < 255) count++;
  return count;
}
