import { createRequire } from 'node:module';
import { QuireError } from '../../../shared/errors';
import { encodeGreyPng } from './greyPng';
import type { GreyImage, OcrEngine, RecognizedLine, RecognizedPage, RecognizeOptions } from './types';

/** What `@napi-rs/system-ocr` exports; `lines` (with boxes) is absent from the published 1.1.0. */
interface SystemOcrModule {
  recognize(
    image: Uint8Array,
    accuracy?: number | null,
    preferredLangs?: string[] | null,
    signal?: AbortSignal | null,
  ): Promise<{
    text: string;
    confidence: number;
    lines?: Array<{
      text: string;
      confidence: number;
      boundingBox: { x: number; y: number; width: number; height: number };
    }>;
  }>;
}

// Vision's Accurate level.
const ACCURATE = 1;
// BCP 47 tags Vision expects for the Tesseract codes Quire uses.
const VISION_LANGUAGES: Readonly<Record<string, string>> = {
  eng: 'en-US',
  fra: 'fr-FR',
  deu: 'de-DE',
  spa: 'es-ES',
  ita: 'it-IT',
  por: 'pt-BR',
  nld: 'nl-NL',
};

/** Loads the native module; null where it has no build (Linux) or fails to load. */
export function loadSystemOcr(): SystemOcrModule | null {
  try {
    return createRequire(import.meta.url)('@napi-rs/system-ocr') as SystemOcrModule;
  } catch {
    return null;
  }
}

/**
 * The operating system's own OCR (Vision on macOS) through `@napi-rs/system-ocr`. Version 1.1.0
 * returns the page text and one confidence but no boxes; when its result carries lines with boxes
 * they are used, and otherwise the page's words share one box over the page, so citations still
 * open the right page but cannot highlight the words. Never run on the machine this was written on.
 */
export class SystemOcrEngine implements OcrEngine {
  readonly id = 'system';
  readonly label = 'macOS Vision';
  readonly wordBoxes = false;

  constructor(private readonly native: SystemOcrModule) {}

  languages(): string[] {
    return Object.keys(VISION_LANGUAGES);
  }

  async recognize(image: GreyImage, options: RecognizeOptions): Promise<RecognizedPage> {
    const languages = options.languages
      .map((code) => VISION_LANGUAGES[code])
      .filter((tag) => tag !== undefined);
    const result = await this.native.recognize(
      encodeGreyPng(image),
      ACCURATE,
      languages,
      options.signal ?? null,
    );
    const toPixels = (box: { x: number; y: number; width: number; height: number }) => ({
      x: box.x * image.width,
      y: box.y * image.height,
      width: box.width * image.width,
      height: box.height * image.height,
    });
    const lines: RecognizedLine[] = result.lines
      ? result.lines.map((line) => wordsOfLine(line.text, toPixels(line.boundingBox), line.confidence))
      : result.text
          .split(/\n+/)
          .filter((text) => text.trim() !== '')
          .map((text) =>
            wordsOfLine(text, { x: 0, y: 0, width: image.width, height: image.height }, result.confidence),
          );
    return { lines: lines.filter((line) => line.words.length > 0), deskewRadians: 0 };
  }

  async dispose(): Promise<void> {}
}

/** Words of a line share its box in proportion to their length, the best estimate without glyph boxes. */
function wordsOfLine(
  text: string,
  box: { x: number; y: number; width: number; height: number },
  confidence: number,
): RecognizedLine {
  const words = text.split(/\s+/).filter(Boolean);
  const total = words.reduce((sum, word) => sum + word.length + 1, 0) || 1;
  let offset = 0;
  return {
    words: words.map((word) => {
      const start = offset;
      offset += word.length + 1;
      return {
        text: word,
        box: {
          x: box.x + (box.width * start) / total,
          y: box.y,
          width: (box.width * word.length) / total,
          height: box.height,
        },
        confidence: Math.min(1, Math.max(0, confidence)),
      };
    }),
  };
}

export function systemOcrUnavailable(platform: string): QuireError {
  return new QuireError(
    'unsupported',
    platform === 'darwin'
      ? 'macOS Vision OCR could not be loaded on this Mac.'
      : 'The system OCR engine (macOS Vision) is only available on macOS.',
  );
}
