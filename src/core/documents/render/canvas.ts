import { createRequire } from 'node:module';
import type * as NapiCanvas from '@napi-rs/canvas';

let canvasModule: typeof NapiCanvas | undefined;

/**
 * A canvas from @napi-rs/canvas, which loads on the first call: its native library takes about a
 * quarter of a second to load, and a process that draws no page (`quire search`) should not wait for it.
 */
export function createCanvas(width: number, height: number): NapiCanvas.Canvas {
  canvasModule ??= createRequire(import.meta.url)('@napi-rs/canvas') as typeof NapiCanvas;
  return canvasModule.createCanvas(width, height);
}
