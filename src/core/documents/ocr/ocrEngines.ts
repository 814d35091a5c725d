import { QuireError } from '../../../shared/errors';
import { loadSystemOcr, SystemOcrEngine, systemOcrUnavailable } from './systemEngine';
import { TESSERACT_FAST_ID, TESSERACT_PACKAGED_ID, TesseractEngine } from './tesseractEngine';
import type { OcrEngine } from './types';

/**
 * Which OCR engine reads pages: `auto` (the default) is Tesseract everywhere, because it is the one
 * engine that gives word boxes and it was measured best here (DESIGN.md, `npm run bench -- ocr`);
 * `system` asks for the operating system's engine (macOS Vision), which gives text without boxes.
 */
export type OcrEngineChoice = 'auto' | 'tesseract' | 'system';

export interface EngineEnvironment {
  platform: NodeJS.Platform;
  /** Loads the system OCR module; injectable so the choice can be tested off macOS. */
  loadSystem: () => ConstructorParameters<typeof SystemOcrEngine>[0] | null;
}

const defaultEnvironment: EngineEnvironment = { platform: process.platform, loadSystem: loadSystemOcr };

/**
 * The one place that decides which engine reads pages. `fastModelDir` is the folder of Tesseract's
 * fast models when they are downloaded and verified for every language asked (else the packaged
 * best_int models read); the system engine has its own model and ignores it.
 */
export function selectOcrEngine(
  choice: OcrEngineChoice,
  environment = defaultEnvironment,
  fastModelDir: string | null = null,
): OcrEngine {
  switch (choice) {
    case 'auto':
    case 'tesseract':
      return new TesseractEngine(fastModelDir ?? undefined);
    case 'system': {
      const native = environment.platform === 'darwin' ? environment.loadSystem() : null;
      if (!native) throw systemOcrUnavailable(environment.platform);
      return new SystemOcrEngine(native);
    }
    default:
      throw new QuireError('invalid_input', `No OCR engine "${String(choice)}".`);
  }
}

/**
 * The engine id a choice resolves to, without starting it (cache keys, settings shown to the user).
 * The model is part of it: the fast model reads other words than the packaged one, so its pages are
 * `tesseract-fast` and the packaged model's stay `tesseract`, as every page read before was.
 */
export function ocrEngineId(choice: OcrEngineChoice, fastModelDir: string | null = null): string {
  if (choice === 'system') return 'system';
  return fastModelDir === null ? TESSERACT_PACKAGED_ID : TESSERACT_FAST_ID;
}

/** The engines this machine can offer. */
export function availableOcrEngines(
  environment = defaultEnvironment,
): Array<{ id: OcrEngineChoice; label: string }> {
  const engines: Array<{ id: OcrEngineChoice; label: string }> = [
    { id: 'tesseract', label: 'Tesseract 5 (WebAssembly)' },
  ];
  if (environment.platform === 'darwin' && environment.loadSystem()) {
    engines.push({ id: 'system', label: 'macOS Vision (no word boxes)' });
  }
  return engines;
}
