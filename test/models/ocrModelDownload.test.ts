import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ocrModelsHere } from '../../src/core/models/catalogue/ocrModelFolder';
import { OCR_MODEL_REVISION, ocrModelFile, ocrModelUrl } from '../../src/core/models/catalogue/ocrModels';
import { ocrModelDownloads } from '../../src/core/models/downloads/catalogueDownloads';
import { DownloadManager } from '../../src/core/models/downloads/downloadManager';
import type { FileDownloadRequest } from '../../src/core/models/downloads/downloadManager';
import { checkPinnedOnlyResponse } from '../../src/core/models/downloads/pinnedHost';
import { ModelService } from '../../src/core/models/modelService';
import type { MemoryBudget } from '../../src/shared/domain/models';
import { tempDir } from '../helpers/shared';
import {
  generatedFile,
  sha256Of,
  startModelHostStandIn,
  type ModelHostStandIn,
} from '../standins/modelHostStandIn';

// Debian's tesseract-ocr-eng: byte-identical to the pinned tessdata_fast eng.traineddata.
const DEBIAN_ENG = '/usr/share/tesseract-ocr/5/tessdata/eng.traineddata';
const RAW_PATH = (file: string) => `tesseract-ocr/tessdata_fast/${OCR_MODEL_REVISION}/${file}`;
const TINY = generatedFile(48 * 1024, 777);
if (!existsSync(DEBIAN_ENG))
  console.log(
    `The download with Quire's own English pin is skipped: no ${DEBIAN_ENG} (apt-get install tesseract-ocr-eng).`,
  );

let host: ModelHostStandIn;
let dir: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  const debian = existsSync(DEBIAN_ENG) ? await readFile(DEBIAN_ENG) : null;
  host = await startModelHostStandIn([
    { path: RAW_PATH('fra.traineddata'), bytes: TINY, storage: 'raw' },
    ...(debian ? [{ path: RAW_PATH('eng.traineddata'), bytes: debian, storage: 'raw' as const }] : []),
  ]);
});
afterAll(() => host.close());
beforeEach(async () => {
  dir = await tempDir('quire-ocr-models-');
  host.behaviour = { chunkBytes: 8 * 1024 };
  host.requests.length = 0;
});
afterEach(() => dir.cleanup());

/** Every file under the models folder, partial files included. */
async function filesIn(path: string): Promise<string[]> {
  const entries = await readdir(path, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** The French download as Quire builds it, pinned to the tiny file the stand-in serves. */
function tinyRequest(pin: Partial<FileDownloadRequest> = {}): FileDownloadRequest {
  const [request] = ocrModelDownloads(['fra'], host.baseUrl);
  return { ...request!, sha256: sha256Of(TINY), sizeBytes: TINY.length, ...pin };
}

async function download(request: FileDownloadRequest) {
  const downloads = new DownloadManager({ modelsDir: dir.path, progressIntervalMs: 0 });
  downloads.start(request);
  return downloads.settled(request.id!);
}

describe('OCR model downloads (GitHub raw, pinned)', () => {
  it('builds one pinned request per language Quire offers, at the pinned commit', () => {
    const requests = ocrModelDownloads(['eng', 'nld', 'deu']);
    expect(requests.map((request) => request.id)).toEqual([
      'tesseract-fast/eng.traineddata',
      'tesseract-fast/deu.traineddata',
    ]);
    expect(requests[0]).toMatchObject({
      url: `https://raw.githubusercontent.com/tesseract-ocr/tessdata_fast/${OCR_MODEL_REVISION}/eng.traineddata`,
      fileName: 'tesseract-fast/eng.traineddata',
      sha256: '7d4322bd2a7749724879683fc3912cb542f19906c83bcc1a52132556427170b2',
      sizeBytes: 4_113_088,
      pinnedOnly: true,
    });
  });

  it('downloads into the models folder, checked against the pinned sha256 and size, without asking the host for a hash', async () => {
    const done = await download(tinyRequest());
    expect(done).toMatchObject({ state: 'done', bytesDone: TINY.length, error: null });
    const landed = await readFile(join(dir.path, 'tesseract-fast', 'fra.traineddata'));
    expect(Buffer.compare(landed, TINY)).toBe(0);
    expect(await filesIn(dir.path)).toEqual(['fra.traineddata']);
    // No HEAD: GitHub's ETag is not the file's sha256 (the stand-in's is not either) and is never read.
    expect(host.requests.map((entry) => entry.method)).toEqual(['GET']);
  });

  it('refuses a file whose sha256 is not the pinned one and leaves nothing in the models folder', async () => {
    const done = await download(tinyRequest({ sha256: sha256Of(generatedFile(TINY.length, 1)) }));
    expect(done.state).toBe('failed');
    expect(done.error).toMatch(/does not match its sha256 .*the file was deleted/);
    expect(await filesIn(dir.path)).toEqual([]);
    expect((await ocrModelsHere(dir.path)).languages).toEqual([]);
  });

  it('refuses a file of another size than the pinned one before writing it', async () => {
    const done = await download(tinyRequest({ sizeBytes: TINY.length + 1 }));
    expect(done.state).toBe('failed');
    expect(done.error).toMatch(/serves 49152 bytes for tesseract-fast\/fra.traineddata, not the 49153/);
    expect(await filesIn(dir.path)).toEqual([]);
  });

  it('refuses a host off the list, plain http, or a file without a pin, before any request', async () => {
    const url = new URL(tinyRequest().url);
    for (const [pin, message] of [
      [
        { url: `https://example.com${url.pathname}` },
        /only be downloaded over https from raw.githubusercontent.com/,
      ],
      [
        { url: `http://raw.githubusercontent.com${url.pathname}` },
        /not from http:\/\/raw.githubusercontent.com/,
      ],
      [{ sha256: null }, /states no hash .* Quire pins none/],
    ] as const) {
      const done = await download(tinyRequest(pin));
      expect(done.state).toBe('failed');
      expect(done.error).toMatch(message);
    }
    expect(host.requests).toEqual([]);
    expect(await filesIn(dir.path)).toEqual([]);
  });

  it('refuses a response a redirect took off https', () => {
    const redirected = { url: 'http://mirror.example/eng.traineddata' } as Response;
    expect(() => checkPinnedOnlyResponse(redirected, 'eng.traineddata')).toThrow(
      /redirected to http:\/\/mirror.example/,
    );
    expect(() =>
      checkPinnedOnlyResponse({ url: ocrModelUrl('eng') } as Response, 'eng.traineddata'),
    ).not.toThrow();
  });

  it('stops on pause (the AbortSignal), never counts the partial file, and resumes to a verified file', async () => {
    host.behaviour = { chunkBytes: 4 * 1024, delayBetweenChunksMs: 20 };
    const downloads = new DownloadManager({ modelsDir: dir.path, progressIntervalMs: 0 });
    const request = tinyRequest();
    downloads.start(request);
    await expect.poll(() => downloads.get(request.id!).bytesDone, { timeout: 5000 }).toBeGreaterThan(0);
    downloads.pause(request.id!);
    expect((await downloads.settled(request.id!)).state).toBe('paused');
    expect(await filesIn(dir.path)).toEqual(['fra.traineddata.partial']);
    host.behaviour = { chunkBytes: 8 * 1024 };
    downloads.resume(request.id!);
    expect((await downloads.settled(request.id!)).state).toBe('done');
    expect(host.ranges().at(-1)).toMatch(/^bytes=\d+-$/);
    expect(await filesIn(dir.path)).toEqual(['fra.traineddata']);
  });

  it('counts a file in the models folder only at its pinned size and sha256', async () => {
    const pinned = [{ language: 'fra', sizeBytes: TINY.length, sha256: sha256Of(TINY) }];
    await download(tinyRequest());
    expect((await ocrModelsHere(dir.path, pinned)).languages).toEqual(['fra']);
    // Same size, other bytes: not the pinned file, not read.
    await writeFile(join(dir.path, 'tesseract-fast', 'fra.traineddata'), generatedFile(TINY.length, 2));
    expect((await ocrModelsHere(dir.path, pinned)).languages).toEqual([]);
    // The real pins: the tiny file is not French's model.
    await download(tinyRequest());
    expect((await ocrModelsHere(dir.path)).languages).toEqual([]);
  });

  it.skipIf(!existsSync(DEBIAN_ENG))(
    "fetches English through the models service with Quire's own pin (Debian's file standing in for GitHub's)",
    async () => {
      const budget = {
        totalBytes: 8e9,
        availableBytes: 4e9,
        entries: [],
        notes: [],
      } as unknown as MemoryBudget;
      const models = new ModelService({
        dataDir: dir.path,
        memory: () => budget,
        candidates: () => [],
        ocrModels: { languages: () => ['eng', 'nld'], endpoint: host.baseUrl },
      });
      try {
        const started = models.download('tesseract-fast');
        expect(started.map((progress) => progress.id)).toEqual(['tesseract-fast/eng.traineddata']);
        const done = await models.downloadSettled('tesseract-fast/eng.traineddata');
        expect(done).toMatchObject({ state: 'done', bytesDone: ocrModelFile('eng')!.sizeBytes });
        expect(await ocrModelsHere(models.modelsDir)).toEqual({
          dir: join(models.modelsDir, 'tesseract-fast'),
          languages: ['eng'],
        });
      } finally {
        await models.dispose();
      }
    },
    60_000,
  );
});
