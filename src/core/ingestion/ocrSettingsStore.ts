import { join } from 'node:path';
import { OcrSettings, type OcrSettingsView } from '../../shared/domain/library';
import { QuireError } from '../../shared/errors';
import { readJsonOr, writeJsonAtomic } from '../common/atomicFile';
import { availableOcrEngines, ocrEngineId } from '../documents/ocr/ocrEngines';
import { TESSERACT_LANGUAGES, tesseractDataDir } from '../documents/ocr/tesseractEngine';
import type { OcrSettingsKey } from '../index/content/recognizedText';

export const DEFAULT_OCR_SETTINGS: OcrSettings = { enabled: true, engine: 'auto', languages: ['eng'] };

/**
 * How scanned pages are read, kept in `<dataDir>/ocr-settings.json`. `forcedOff` (the CLI's
 * `--no-ocr`) turns OCR off for this run without changing what is saved.
 */
export class OcrSettingsStore {
  private settings: OcrSettings = DEFAULT_OCR_SETTINGS;
  private readonly file: string;

  constructor(
    dataDir: string,
    private readonly forcedOff = false,
    private readonly onChange: (settings: OcrSettings) => void = () => undefined,
  ) {
    this.file = join(dataDir, 'ocr-settings.json');
  }

  /** The settings in force for this run. */
  get current(): OcrSettings {
    return this.forcedOff ? { ...this.settings, enabled: false } : this.settings;
  }

  /** What a page's reading must match to count as done. */
  get key(): OcrSettingsKey {
    return { engine: ocrEngineId(this.current.engine), languages: this.current.languages };
  }

  /** A file that is not valid falls back to the defaults rather than stopping the app. */
  async load(): Promise<OcrSettings> {
    const raw = await readJsonOr(this.file, DEFAULT_OCR_SETTINGS).catch(() => DEFAULT_OCR_SETTINGS);
    const parsed = OcrSettings.safeParse(raw);
    this.settings = parsed.success ? parsed.data : DEFAULT_OCR_SETTINGS;
    return this.settings;
  }

  view(): OcrSettingsView {
    return {
      settings: this.current,
      engines: [{ id: 'auto', label: 'Automatic (Tesseract)' }, ...availableOcrEngines()],
      languages: Object.entries(TESSERACT_LANGUAGES)
        .filter(([code]) => tesseractDataDir(code) !== null)
        .map(([code, label]) => ({ code, label })),
    };
  }

  async update(change: Partial<OcrSettings>): Promise<OcrSettingsView> {
    const next = OcrSettings.parse({ ...this.settings, ...change });
    const offered = new Set(this.view().languages.map((language) => language.code));
    const missing = next.languages.filter((code) => !offered.has(code));
    if (missing.length > 0) {
      throw new QuireError('invalid_input', `OCR cannot read ${missing.join(', ')} on this machine.`);
    }
    if (!this.view().engines.some((engine) => engine.id === next.engine)) {
      throw new QuireError('unsupported', `The OCR engine "${next.engine}" is not available here.`);
    }
    await writeJsonAtomic(this.file, next);
    this.settings = next;
    this.onChange(this.current);
    return this.view();
  }
}
