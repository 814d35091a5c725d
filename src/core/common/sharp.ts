import { createRequire } from 'node:module';
import type SharpModule from 'sharp';

type Sharp = typeof SharpModule;

let loaded: Sharp | undefined;
const settings: Array<(sharp: Sharp) => void> = [];

/**
 * sharp, loaded on the first call: libvips and its JavaScript take about a tenth of a second of CPU to
 * load, which a process that handles no image (`quire search`) should not pay.
 */
export function loadSharp(): Sharp {
  if (!loaded) {
    loaded = createRequire(import.meta.url)('sharp') as Sharp;
    for (const apply of settings) apply(loaded);
  }
  return loaded;
}

/** Process-wide sharp settings, applied before its first use (at once when it is loaded already). */
export function configureSharp(apply: (sharp: Sharp) => void): void {
  if (loaded) apply(loaded);
  else settings.push(apply);
}
