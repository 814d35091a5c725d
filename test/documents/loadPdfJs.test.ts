import { describe, expect, it } from 'vitest';
import { loadPdfJs } from '../../src/core/documents/pdf/loadPdfJs';
import { parsePdf } from '../../src/core/documents/pdf/parsePdf';
import { writeSamplePdfs } from '../helpers/samplePdfs';
import { tempDir } from '../helpers/shared';

// Taken before pdfjs loads (it is imported on first use). core-js dresses its replacements up as
// native in their source text, so only identity tells them apart.
const natives = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };

describe('loading pdfjs', () => {
  it('leaves the thread with native Array push and JSON functions, and pdfjs still reads PDFs', async () => {
    await loadPdfJs();
    expect(Array.prototype.push).toBe(natives.push);
    expect(JSON.parse).toBe(natives.parse);
    expect(JSON.stringify).toBe(natives.stringify);
    // Both halves run in this thread: the worker half came from the module loaded beside the main one.
    expect(
      (globalThis as { pdfjsWorker?: { WorkerMessageHandler?: unknown } }).pdfjsWorker?.WorkerMessageHandler,
    ).toBeDefined();
    const folder = await tempDir('quire-pdfjs-');
    try {
      const [survey] = await writeSamplePdfs(folder.path);
      const parsed = await parsePdf(survey!, { pages: [1] });
      expect(parsed.pages[0]!.text).toContain('Field survey of the northern orchard');
    } finally {
      await folder.cleanup();
    }
  });
});
