import { join } from 'node:path';
import { OcrSettings, type OcrSettingsView } from '../../shared/domain/library';
import { QuireError } from '../../shared/errors';
import { readJsonOr, writeJsonAtomic } from '../common/atomicFile';
import { availableOcrEngines, ocrEngineId } from '../documents/ocr/ocrEngines';
import { TESSERACT_LANGUAGES, tesseractDataDir } from '../documents/ocr/tesseractEngine';
import type { OcrSettingsKey } from '../index/content/recognizedText';
import { fastModelDirFor, ocrModelsHere, type OcrModelsHere } from '../models/catalogue/ocrModelFolder';
import { OCR_MODEL_ID, ocrModelFile } from '../models/catalogue/ocrModels';

export const DEFAULT_OCR_SETTINGS: OcrSettings = { enabled: true, engine: 'auto', languages: ['eng'] };

/**
 * How scanned pages are read, kept in `<dataDir>/ocr-settings.json`, and which Tesseract model
 * reads them: the fast models in the models folder when they are there, verified, for every
 * language in use; else the packaged ones, and the view says why. `forcedOff` (the CLI's
 * `--no-ocr`) turns OCR off for this run without changing what is saved.
 */
export class OcrSettingsStore {
  private settings: OcrSettings = DEFAULT_OCR_SETTINGS;
  private readonly file: string;
  private models: OcrModelsHere | null = null;

  /**
   * @param modelsDir the models folder the fast models are downloaded to; unset, only the packaged
   * models read (tests, and tools with no data folder of their own)
   */
  constructor(
    dataDir: string,
    private readonly forcedOff = false,
    private readonly onChange: (settings: OcrSettings) => void = () => undefined,
    private readonly modelsDir?: string,
  ) {
    this.file = join(dataDir, 'ocr-settings.json');
  }

  /** The settings in force for this run. */
  get current(): OcrSettings {
    return this.forcedOff ? { ...this.settings, enabled: false } : this.settings;
  }

  /** The folder of Tesseract's fast models when they serve the languages in use; else null. */
  get fastModelDir(): string | null {
    return this.current.engine === 'system' ? null : fastModelDirFor(this.models, this.current.languages);
  }

  /** What a page's reading must match to count as done. */
  get key(): OcrSettingsKey {
    return { engine: ocrEngineId(this.current.engine, this.fastModelDir), languages: this.current.languages };
  }

  /** A file that is not valid falls back to the defaults rather than stopping the app. */
  async load(): Promise<OcrSettings> {
    const raw = await readJsonOr(this.file, DEFAULT_OCR_SETTINGS).catch(() => DEFAULT_OCR_SETTINGS);
    const parsed = OcrSettings.safeParse(raw);
    this.settings = parsed.success ? parsed.data : DEFAULT_OCR_SETTINGS;
    await this.checkModels(false);
    return this.settings;
  }

  /**
   * Looks at the models folder again (after a download): when the model that reads pages changes,
   * pages not yet read with it are queued as after a change of settings.
   */
  async checkModels(notify = true): Promise<void> {
    if (this.modelsDir === undefined) return;
    const before = this.key.engine;
    this.models = await ocrModelsHere(this.modelsDir);
    if (notify && this.key.engine !== before) this.onChange(this.current);
  }

  /** A download has ended: when it brought a fast model, that model reads pages from now on. */
  noteDownload(download: { id: string; state: string }): void {
    if (download.state === 'done' && download.id.startsWith(`${OCR_MODEL_ID}/`))
      void this.checkModels().catch(() => undefined);
  }

  view(): OcrSettingsView {
    return {
      settings: this.current,
      engines: [{ id: 'auto', label: 'Automatic (Tesseract)' }, ...availableOcrEngines()],
      languages: Object.entries(TESSERACT_LANGUAGES)
        .filter(([code]) => tesseractDataDir(code) !== null)
        .map(([code, label]) => ({ code, label })),
      model: this.modelInUse(),
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

  /** Which model reads pages, said so that the user sees when it is not the fast one, and why. */
  private modelInUse(): OcrSettingsView['model'] {
    const { engine, languages } = this.current;
    if (engine === 'system')
      return { fast: false, description: 'macOS Vision reads pages with its own model.' };
    if (this.fastModelDir !== null) {
      return {
        fast: true,
        description: "Pages are read with Tesseract's fast model, downloaded and verified.",
      };
    }
    const name = (code: string) => TESSERACT_LANGUAGES[code] ?? code;
    const notOffered = languages.filter((code) => !ocrModelFile(code));
    const why =
      notOffered.length > 0
        ? `Quire has no fast model for ${notOffered.map(name).join(', ')}`
        : `the fast model for ${languages
            .filter((code) => !this.models?.languages.includes(code))
            .map(name)
            .join(', ')} is not downloaded (Models, set up)`;
    return {
      fast: false,
      description: `Pages are read with the model packaged with Quire (slower than the fast one): ${why}.`,
    };
  }
}
