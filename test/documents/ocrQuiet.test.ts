import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWorker, OEM } from 'tesseract.js';
import { encodeGreyPng } from '../../src/core/documents/ocr/greyPng';
import { OCR_DEBUG_ENV, quietWorkerUrl } from '../../src/core/documents/ocr/quietTesseractWorker';
import { tesseractDataDir } from '../../src/core/documents/ocr/tesseractEngine';

/**
 * Leptonica complains on the console about a region outside the page ("Error in boxClipToRectangle:
 * box outside rectangle"); a 100 px blank page read in a rectangle beyond its edge makes it say so.
 * What reaches this process's stderr is what a `quire index` user would see in the terminal.
 */
async function readOutsideThePage(
  quiet: boolean,
  expected: string | null,
): Promise<{ stderr: string; text: string }> {
  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  });
  try {
    const worker = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: tesseractDataDir('eng')!,
      cacheMethod: 'none',
      gzip: true,
      ...(quiet ? { workerPath: quietWorkerUrl() as unknown as string } : {}),
    });
    const png = encodeGreyPng({
      pixels: new Uint8Array(100 * 100).fill(255),
      width: 100,
      height: 100,
      dpi: 300,
    });
    const result = await worker.recognize(png, {
      rectangle: { left: 1000, top: 1000, width: 10, height: 10 },
    });
    // The worker's console reaches this thread on its own channel, after the job's answer at times:
    // wait for what is expected (or, expecting nothing, a while) before the worker ends.
    await vi
      .waitFor(() => expect(expected !== null && stderr.includes(expected)).toBe(true), {
        timeout: 3_000,
        interval: 50,
      })
      .catch(() => undefined);
    await worker.terminate();
    return { stderr, text: result.data.text };
  } finally {
    spy.mockRestore();
  }
}

describe("Tesseract's own messages stay out of the terminal", () => {
  afterEach(() => {
    delete process.env[OCR_DEBUG_ENV];
  });

  // The quiet worker first: a worker's console can reach this thread after the worker is gone,
  // and what the others print must not land in its window.
  it("says nothing through Quire's worker, and the page is still read", async () => {
    const { stderr, text } = await readOutsideThePage(true, null);
    expect(stderr).not.toContain('Error in');
    expect(text).toBe('');
  }, 60_000);

  it(`writes them, marked as Tesseract's, with ${OCR_DEBUG_ENV}=1`, async () => {
    process.env[OCR_DEBUG_ENV] = '1';
    const message = 'tesseract: Error in boxClipToRectangle: box outside rectangle';
    const { stderr } = await readOutsideThePage(true, message);
    expect(stderr).toContain(message);
  }, 60_000);

  it('the page that makes Leptonica complain through the default worker', async () => {
    const message = 'Error in boxClipToRectangle: box outside rectangle';
    const { stderr } = await readOutsideThePage(false, message);
    expect(stderr).toContain(message);
  }, 60_000);
});
