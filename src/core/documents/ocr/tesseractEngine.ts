import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Worker as TesseractWorker } from 'tesseract.js';
import { QuireError } from '../../../shared/errors';
import { encodeGreyPng } from './greyPng';
import { releasePixels } from './pageGeometry';
import { quietWorkerUrl } from './quietTesseractWorker';
import type {
  GreyImage,
  OcrEngine,
  OrientationGuess,
  QuarterTurn,
  RecognizedLine,
  RecognizedPage,
  RecognizeOptions,
} from './types';

const require = createRequire(import.meta.url);

/** tesseract.js, loaded when a page is first read: processes that OCR nothing skip its modules. */
function loadTesseract() {
  return import('tesseract.js');
}

/**
 * Languages whose Tesseract data can ship as `@tesseract.js-data/<code>` packages; those installed
 * are offered. The data always comes from node_modules: tesseract.js fetches from a CDN only when
 * no `langPath` is given, and every worker here is given one.
 */
export const TESSERACT_LANGUAGES: Readonly<Record<string, string>> = {
  eng: 'English',
  fra: 'French',
  deu: 'German',
  spa: 'Spanish',
  ita: 'Italian',
  por: 'Portuguese',
  nld: 'Dutch',
};

// The LSTM-only "best_int" models: the smaller and faster of the two builds each package holds.
const RECOGNITION_DATA = '4.0.0_best_int';
// Orientation detection uses the legacy engine's `osd` model.
const ORIENTATION_DATA = '4.0.0';
// Tesseract's own automatic page segmentation (the CLI's default); the API's default reads one block.
const PSM_AUTO = '3';
// Tesseract's diagnostics ("Too few characters", resolution guesses) go nowhere instead of stderr.
const QUIET = '/dev/null';
// Pages are drawn for OCR at this resolution; telling Tesseract saves it a guess (and a log line).
export const OCR_DPI = 300;

/** The folder holding `<code>.traineddata.gz` for one language, or null when it is not installed. */
export function tesseractDataDir(code: string, build: string = RECOGNITION_DATA): string | null {
  if (!/^[a-z]{3}(?:_[a-z]+)?$/.test(code)) return null;
  try {
    const dir = join(dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)), build);
    return existsSync(join(dir, `${code}.traineddata.gz`)) ? dir : null;
  } catch {
    return null;
  }
}

/**
 * tesseract.js reads every language from one folder, and each language is its own package: for a
 * mix, their files are copied side by side into a temporary folder (a few MB each).
 */
async function sideBySide(codes: readonly string[], dirs: readonly string[]): Promise<string> {
  const folder = join(tmpdir(), `quire-ocr-${codes.join('+')}`);
  await mkdir(folder, { recursive: true });
  for (const [at, code] of codes.entries()) {
    const target = join(folder, `${code}.traineddata.gz`);
    if (existsSync(target)) continue;
    // Copied under a temporary name first: another thread may be reading the folder already.
    const partial = `${target}.${randomBytes(4).toString('hex')}`;
    await copyFile(join(dirs[at]!, `${code}.traineddata.gz`), partial);
    await rename(partial, target);
  }
  return folder;
}

/**
 * The words of Tesseract's TSV output grouped into lines. TSV is written by Tesseract itself in one
 * call; the `blocks` tree is walked symbol by symbol across the WebAssembly boundary and cost more.
 * Columns: level, page, block, paragraph, line, word, left, top, width, height, confidence, text;
 * level 5 rows are words.
 */
export function linesFromTsv(tsv: string): RecognizedLine[] {
  const lines: RecognizedLine[] = [];
  let lineKey = '';
  let current: RecognizedLine | null = null;
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells[0] !== '5' || cells.length < 12) continue;
    const text = cells.slice(11).join('\t').trim();
    if (text === '') continue;
    const key = `${cells[2]}.${cells[3]}.${cells[4]}`;
    if (key !== lineKey || !current) {
      lineKey = key;
      current = { words: [] };
      lines.push(current);
    }
    current.words.push({
      text,
      box: {
        x: Number(cells[6]),
        y: Number(cells[7]),
        width: Math.max(0, Number(cells[8])),
        height: Math.max(0, Number(cells[9])),
      },
      confidence: Math.min(1, Math.max(0, Number(cells[10]) / 100)),
    });
  }
  return lines;
}

/** tesseract.js types `workerPath` as a string; in Node it is handed to `new Worker`, which takes a URL. */
function quietWorker(): { workerPath: string } {
  return { workerPath: quietWorkerUrl() as unknown as string };
}

/** Pages read with the packaged best_int models (every page read before the fast model came). */
export const TESSERACT_PACKAGED_ID = 'tesseract';
/** Pages read with Tesseract's fast models from a folder (tessdata_fast). */
export const TESSERACT_FAST_ID = 'tesseract-fast';

/**
 * Tesseract 5 compiled to WebAssembly (tesseract.js), reading in its own thread. Each instance keeps
 * one recognizer (for the languages last asked) and, once needed, one orientation detector.
 */
export class TesseractEngine implements OcrEngine {
  /** Stored with every page: readings of the two models differ, so they are never taken for each other. */
  readonly id: string;
  readonly label: string;
  readonly wordBoxes = true;
  private recognizer: { languages: string; worker: Promise<TesseractWorker> } | null = null;
  private orientation: Promise<TesseractWorker> | null = null;
  private disposed = false;

  /**
   * @param modelDir A folder of Tesseract's fast models, uncompressed `<code>.traineddata` files
   * (the ones downloaded to the models folder, or Debian's in the OCR bench), read instead of the
   * npm packages' best_int models; unset, the packages'.
   */
  constructor(private readonly modelDir?: string) {
    this.id = modelDir === undefined ? TESSERACT_PACKAGED_ID : TESSERACT_FAST_ID;
    this.label =
      modelDir === undefined ? 'Tesseract 5 (WebAssembly)' : 'Tesseract 5 (WebAssembly, fast model)';
  }

  languages(): string[] {
    const dir = this.modelDir;
    return Object.keys(TESSERACT_LANGUAGES).filter((code) =>
      dir === undefined ? tesseractDataDir(code) !== null : existsSync(join(dir, `${code}.traineddata`)),
    );
  }

  async recognize(image: GreyImage, options: RecognizeOptions): Promise<RecognizedPage> {
    const worker = await this.recognizerFor(options.languages);
    options.signal?.throwIfAborted();
    const png = encodeGreyPng(image);
    const result = await this.abortable(
      worker.recognize(
        png,
        // A skew measured already is applied as it is: measuring it again costs Tesseract a second
        // layout analysis of the page.
        options.deskewRadians === undefined ? { rotateAuto: true } : { rotateRadians: options.deskewRadians },
        { text: false, blocks: false, hocr: false, tsv: true },
      ),
      options.signal,
    ).finally(() => releasePixels(png));
    const data = result.data as { tsv: string | null; rotateRadians?: number | null };
    return { lines: linesFromTsv(data.tsv ?? ''), deskewRadians: data.rotateRadians ?? 0 };
  }

  async detectOrientation(image: GreyImage, signal?: AbortSignal): Promise<OrientationGuess | null> {
    this.orientation ??= this.start(async () => {
      const langPath = tesseractDataDir('osd', ORIENTATION_DATA);
      if (!langPath) throw new QuireError('unsupported', 'The orientation model (osd) is not installed.');
      const { createWorker, OEM } = await loadTesseract();
      const worker = await createWorker('osd', OEM.TESSERACT_ONLY, {
        ...quietWorker(),
        langPath,
        cacheMethod: 'none',
        legacyCore: true,
        legacyLang: true,
      });
      await worker.setParameters({ debug_file: QUIET });
      return worker;
    });
    const worker = await this.orientation;
    signal?.throwIfAborted();
    const png = encodeGreyPng(image);
    const { data } = await this.abortable(worker.detect(png), signal).finally(() => releasePixels(png));
    const degrees = data.orientation_degrees;
    if (degrees === null || data.orientation_confidence === null) return null;
    // Tesseract reports how far the text is turned; turning the image back by that much makes it upright.
    return { turn: (((degrees % 360) + 360) % 360) as QuarterTurn, confidence: data.orientation_confidence };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const workers = [this.recognizer?.worker, this.orientation];
    this.recognizer = null;
    this.orientation = null;
    for (const worker of workers) await (await worker?.catch(() => null))?.terminate().catch(() => undefined);
  }

  private async recognizerFor(languages: readonly string[]): Promise<TesseractWorker> {
    const wanted = languages.length > 0 ? [...languages] : ['eng'];
    const key = wanted.join('+');
    if (this.recognizer?.languages === key) return this.recognizer.worker;
    const previous = this.recognizer?.worker;
    const dirs = wanted.map((code) =>
      this.modelDir === undefined
        ? tesseractDataDir(code)
        : existsSync(join(this.modelDir, `${code}.traineddata`))
          ? this.modelDir
          : null,
    );
    const missing = wanted.filter((_, at) => dirs[at] === null);
    if (missing.length > 0) {
      throw new QuireError(
        'unsupported',
        `OCR has no data for ${missing.join(', ')}; available: ${this.languages().join(', ')}.`,
      );
    }
    this.recognizer = {
      languages: key,
      worker: this.start(async () => {
        const packed = this.modelDir === undefined;
        const langPath =
          wanted.length === 1 || !packed ? dirs[0]! : await sideBySide(wanted, dirs as string[]);
        const { createWorker, OEM } = await loadTesseract();
        const worker = await createWorker(wanted, OEM.LSTM_ONLY, {
          ...quietWorker(),
          langPath,
          cacheMethod: 'none',
          gzip: packed,
        });
        await worker.setParameters({ tessedit_pageseg_mode: PSM_AUTO as never, debug_file: QUIET });
        return worker;
      }),
    };
    await (await previous?.catch(() => null))?.terminate().catch(() => undefined);
    return this.recognizer.worker;
  }

  private start(create: () => Promise<TesseractWorker>): Promise<TesseractWorker> {
    if (this.disposed) return Promise.reject(new QuireError('cancelled', 'OCR is closed.'));
    const started = create().catch((error: unknown) => {
      throw error instanceof QuireError
        ? error
        : new QuireError('unsupported', `Tesseract could not start: ${String(error)}`);
    });
    started.catch(() => undefined);
    return started;
  }

  /**
   * tesseract.js cannot stop a page midway; an abort ends the wait and ends the worker, so a
   * cancelled page never holds the engine (the next page starts a fresh one).
   */
  private async abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    if (!signal) return work;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        void this.dispose().then(() => (this.disposed = false));
        reject(new QuireError('cancelled', 'Cancelled.'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([work, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort!);
    }
  }
}
