import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ocrLongEdge } from '../../src/core/documents/ocr/ocrPageDrawing';
import { recognizePage } from '../../src/core/documents/ocr/recognizePage';
import { TesseractEngine } from '../../src/core/documents/ocr/tesseractEngine';
import { PdfPageDrawer } from '../../src/core/documents/render/pdfPageDrawer';
import { corpusDir, tempDir } from '../helpers/shared';

// Debian's tesseract-ocr-eng (installed by .ci/run for the OCR bench's CLI baseline).
const DEBIAN_MODELS = '/usr/share/tesseract-ocr/5/tessdata';

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

  it.skipIf(!existsSync(join(DEBIAN_MODELS, 'eng.traineddata')))(
    "reads a page with the folder's uncompressed model",
    async () => {
      const drawer = await PdfPageDrawer.open(join(corpusDir, 'docling/ocr__ocr_test.pdf'), undefined);
      const engine = new TesseractEngine(DEBIAN_MODELS);
      try {
        const size = await drawer.pageSize(1);
        const raster = await drawer.drawFull(1, ocrLongEdge(size.width, size.height, 150));
        const record = await recognizePage(engine, raster, { languages: ['eng'], dpi: 150 });
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
