import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('the text layer check on corpus PDFs');

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * A folder with a born-digital PDF and one whose only text is a layer drawn invisibly over a scan:
 * its text alone looks sound, so only PDFium's measure, made after the text is searchable, finds
 * that its page needs OCR.
 */
async function folderWithHiddenLayer(): Promise<string> {
  const folder = await tempDir();
  cleanups.push(folder.cleanup);
  await copyFile(join(corpusDir, 'unstructured', 'pdf-with-ocr-text.pdf'), join(folder.path, 'hidden.pdf'));
  await copyFile(join(corpusDir, 'pdfjs', 'tracemonkey.pdf'), join(folder.path, 'born-digital.pdf'));
  return folder.path;
}

async function indexed(folder: string, ocr: boolean, onProgress?: (waiting: number) => void): Promise<Core> {
  const data = await tempDir();
  cleanups.push(data.cleanup);
  const core = createCore({
    dataDir: data.path,
    findModels: false,
    detectServers: false,
    embedInBackground: false,
    workers: 2,
    ocr,
  });
  cleanups.push(() => core.dispose());
  await core.start();
  if (onProgress) core.ingestion.events.on('progress', (progress) => onProgress(progress.pagesToRecognize));
  await core.library.addFolder(folder);
  do {
    await core.library.whenIdle();
    await core.ingestion.whenIdle();
  } while (core.library.snapshot().scanning);
  return core;
}

function byName(core: Core, name: string) {
  const doc = core.library.snapshot().documents.find((d) => d.path.endsWith(name));
  if (!doc) throw new Error(`${name} is not in the library`);
  return doc;
}

describe.skipIf(noCorpus)('the text layer check after a PDF is searchable', () => {
  it('flags a page whose layer is drawn invisibly, and leaves a born-digital file alone', async () => {
    const core = await indexed(await folderWithHiddenLayer(), false);
    expect(byName(core, 'hidden.pdf')).toMatchObject({
      state: 'indexed',
      ocr: { pagesNeedingOcr: 1, pagesWaiting: 1, pagesRead: 0 },
    });
    const digital = byName(core, 'born-digital.pdf');
    expect(digital.state).toBe('indexed');
    expect(digital.ocr ?? null).toBeNull();
  }, 180_000);

  it('counts the pages it flags as waiting for OCR on the progress card, then reads them', async () => {
    const waiting: number[] = [];
    const core = await indexed(await folderWithHiddenLayer(), true, (count) => waiting.push(count));
    expect(Math.max(0, ...waiting)).toBe(1);
    expect(core.ingestion.progress().pagesToRecognize).toBe(0);
    expect(byName(core, 'hidden.pdf').ocr).toMatchObject({
      pagesNeedingOcr: 1,
      pagesWaiting: 0,
      pagesRead: 1,
    });
  }, 300_000);
});
