import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ocrEngineId, selectOcrEngine } from '../../src/core/documents/ocr/ocrEngines';
import { ocrLongEdge } from '../../src/core/documents/ocr/ocrPageDrawing';
import { pageOcrOf } from '../../src/core/documents/ocr/ocrProvenance';
import { OcrStore } from '../../src/core/documents/ocr/ocrStore';
import { failedRecord, recognizePage } from '../../src/core/documents/ocr/recognizePage';
import { ocrKeyOf } from '../../src/core/documents/ocr/recognizePdfPages';
import { TesseractEngine } from '../../src/core/documents/ocr/tesseractEngine';
import { PdfPageDrawer } from '../../src/core/documents/render/pdfPageDrawer';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

// Debian's tesseract-ocr-eng (installed by .ci/run for the OCR bench's CLI baseline).
const DEBIAN_MODELS = '/usr/share/tesseract-ocr/5/tessdata';

describe("the fast model's readings told apart from the packaged model's", () => {
  const fastDir = '/models/tesseract-fast';

  it('names the engine and the cache key after the model that reads', async () => {
    const packaged = selectOcrEngine('auto');
    const fast = selectOcrEngine('tesseract', undefined, fastDir);
    try {
      expect([packaged.id, fast.id]).toEqual(['tesseract', 'tesseract-fast']);
      expect(fast.label).toBe('Tesseract 5 (WebAssembly, fast model)');
    } finally {
      await Promise.all([packaged.dispose(), fast.dispose()]);
    }
    expect(ocrEngineId('auto')).toBe('tesseract');
    expect(ocrEngineId('auto', fastDir)).toBe('tesseract-fast');
    expect(ocrEngineId('system', fastDir)).toBe('system');
    expect(ocrKeyOf({ engine: 'auto', languages: ['eng'], fastModelDir: fastDir })).toEqual({
      engine: 'tesseract-fast',
      languages: ['eng'],
    });
  });

  it('keeps a page read before the fast model came valid for the packaged model only', async () => {
    const dir = await tempDir();
    try {
      const store = new OcrStore(dir.path);
      const hash = 'ab'.repeat(32);
      // As every page read so far was saved: engine `tesseract`, the packaged best_int model.
      await store.put(hash, 1, failedRecord('tesseract', ['eng'], 'unreadable'));
      const packagedKey = ocrKeyOf({ engine: 'auto', languages: ['eng'] });
      const fastKey = ocrKeyOf({ engine: 'auto', languages: ['eng'], fastModelDir: fastDir });
      expect((await store.get(hash, 1, packagedKey))?.engine).toBe('tesseract');
      expect(await store.get(hash, 1, fastKey)).toBeNull();
      await store.put(hash, 2, failedRecord(fastKey.engine, ['eng'], 'unreadable'));
      expect((await store.get(hash, 2, fastKey))?.engine).toBe('tesseract-fast');
      expect(await store.get(hash, 2, packagedKey)).toBeNull();
      // The provenance a page keeps names the model too.
      expect(pageOcrOf((await store.get(hash, 2, fastKey))!, 'missing', 0).engine).toBe('tesseract-fast');
    } finally {
      await dir.cleanup();
    }
  });
});

describe('Tesseract models from a folder (the OCR bench compares Debian\'s "fast" model so)', () => {
  it('refuses a language whose model the folder does not hold', async () => {
    const dir = await tempDir();
    const engine = new TesseractEngine(dir.path);
    try {
      await expect(
        engine.recognize({ pixels: new Uint8Array(4), width: 2, height: 2 }, { languages: ['eng'] }),
      ).rejects.toThrow(/no data for eng/);
    } finally {
      await engine.dispose();
      await dir.cleanup();
    }
  });

  it.skipIf(
    !existsSync(join(DEBIAN_MODELS, 'eng.traineddata')) ||
      withoutCorpus('OCR of a corpus scan with a model folder'),
  )(
    "reads a page with the folder's uncompressed model",
    async () => {
      const drawer = await PdfPageDrawer.open(join(corpusDir, 'docling/ocr__ocr_test.pdf'), undefined);
      const engine = new TesseractEngine(DEBIAN_MODELS);
      try {
        const size = await drawer.pageSize(1);
        const raster = await drawer.drawFull(1, ocrLongEdge(size.width, size.height, 150));
        const record = await recognizePage(engine, raster, { languages: ['eng'], dpi: 150 });
        // Its pages say which model read them: never taken for the packaged model's reading.
        expect(record.engine).toBe('tesseract-fast');
        const text = record.lines.map((line) => line.map((word) => word[0]).join(' ')).join(' ');
        expect(text).toContain('Docling bundles PDF document conversion');
      } finally {
        await engine.dispose();
        await drawer.close();
      }
    },
    120_000,
  );
});
