import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageImage, SearchResult } from '../../src/shared/domain/search';
import { createCore, type Core } from '../../src/core/createCore';
import { openPageImage } from '../../src/core/pages/readPageImage';
import { CommitTable } from '../../src/core/location/commitTable';
import { parseLibraryLocation, type LibraryLocation } from '../../src/core/location/libraryLocation';
import { locationSettingFile, readLocationSetting } from '../../src/core/location/locationSetting';
import { ObjectStore } from '../../src/core/location/objectStore';
import { openSharedLibrary } from '../../src/core/location/sharedLibrary';
import { startObjectStore, type RunningObjectStore } from '../../scripts/objectStoreServer';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('the team library on corpus PDFs');

const keys = { accessKeyId: 'quiretest', secretAccessKey: 'quire-test-secret-value' };
const cli = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'quire.mjs');
const cleanups: Array<() => Promise<void>> = [];
let store: RunningObjectStore;
let storeDir: string;
let location: LibraryLocation;

process.env.AWS_ACCESS_KEY_ID = keys.accessKeyId;
process.env.AWS_SECRET_ACCESS_KEY = keys.secretAccessKey;
process.env.LANCEDB_LOG = 'error';

beforeAll(async () => {
  const dir = await tempDir();
  cleanups.push(dir.cleanup);
  storeDir = dir.path;
  store = await startObjectStore({ ...keys, directory: storeDir });
  process.env.DYNAMODB_ENDPOINT = store.dynamodbEndpoint;
  location = parseLibraryLocation({ uri: store.library, endpoint: store.endpoint });
}, 60_000);

afterAll(async () => {
  await store?.stop();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function folderWith(...files: string[]): Promise<string> {
  const dir = await tempDir();
  cleanups.push(dir.cleanup);
  for (const file of files) await copyFile(join(corpusDir, file), join(dir.path, file.split('/').pop()!));
  return dir.path;
}

async function dataDir(): Promise<string> {
  const dir = await tempDir();
  cleanups.push(dir.cleanup);
  return dir.path;
}

async function indexInto(core: Core, folder: string): Promise<void> {
  await core.library.addFolder(folder);
  do {
    await core.library.whenIdle();
    await core.ingestion.whenIdle();
  } while (core.library.snapshot().scanning);
}

async function search(core: Core, query: string): Promise<string[]> {
  const result = await core.dispatch('search.retrieve', { query, k: 5, mode: 'bm25' });
  if (!result.ok) throw new Error(result.error.message);
  return (result.value as SearchResult).hits.map((hit) => hit.path);
}

function lanceFolders(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith('.lance'));
}

describe.skipIf(noCorpus)('a team library on a local S3-compatible store', () => {
  it('the store: s3rver ignores If-None-Match, the commit table refuses a second put of a version', async () => {
    // The reason commits go through s3+ddb://: recorded here so a server change shows up.
    const objects = new ObjectStore(location, keys);
    const first = await objects.putConditional('probe', new Uint8Array([1]), { ifNoneMatch: '*' });
    const second = await objects.putConditional('probe', new Uint8Array([2]), { ifNoneMatch: '*' });
    expect(first).not.toBeNull();
    expect(second, 's3rver now honours If-None-Match: plain s3:// could be used').not.toBeNull();
    const table = new CommitTable(location, keys);
    const item = { base_uri: { S: 'probe' }, version: { N: '1' } };
    expect(await table.putIf(item, 'attribute_not_exists(base_uri)')).toBe(true);
    expect(await table.putIf(item, 'attribute_not_exists(base_uri)')).toBe(false);
  });

  it('indexes into the store, a second process searches it, and no data folder holds the index', async () => {
    const folder = await folderWith('pdfjs/tracemonkey.pdf');
    const writerDir = await dataDir();
    const writer = createCore({ dataDir: writerDir, library: location, ocr: false, findModels: false });
    await writer.start();
    try {
      await indexInto(writer, folder);
    } finally {
      await writer.dispose();
    }
    // The page images are in the store: a reader shows a page with the writer's copies gone.
    await rm(join(writerDir, 'pages'), { recursive: true, force: true });
    const readerDir = await dataDir();
    const reader = createCore({ dataDir: readerDir, library: location, ingest: false, findModels: false });
    await reader.start();
    try {
      expect(await search(reader, 'trace trees')).toContain(join(folder, 'tracemonkey.pdf'));
      const doc = reader.index.documents.list().find((d) => d.path.endsWith('tracemonkey.pdf'))!;
      const page = await reader.index.content.page(doc.id, 1);
      expect(page.image).not.toBeNull();
      const bytes = await reader.pageImages.read(page.image!.full);
      expect(new TextDecoder().decode(bytes.slice(8, 12))).toBe('WEBP');
      // The app's viewer asks through the contract: a reader has no local record of the file.
      const shown = await reader.dispatch('pages.get', { documentId: doc.id, page: 1, size: 'full' });
      expect(shown.ok).toBe(true);
      if (shown.ok) expect((shown.value as PageImage).version).toMatch(/^[0-9a-f]{16}$/);
      const opened = await openPageImage(reader, doc.id, 1, 'full');
      expect(new TextDecoder().decode(opened.bytes.slice(8, 12))).toBe('WEBP');
      // A reader writes nothing.
      await expect(reader.index.maintenance.optimize()).rejects.toThrow(/read-only/);
    } finally {
      await reader.dispose();
    }
    expect([...lanceFolders(writerDir), ...lanceFolders(readerDir)]).toEqual([]);
  }, 600_000);

  it('a reader that stays open sees the writer’s next commit after refresh, and a second writer is refused', async () => {
    const readerDir = await dataDir();
    const reader = createCore({ dataDir: readerDir, library: location, ingest: false, findModels: false });
    await reader.start();
    // The reader's library panel lists the writer's documents, from the store's documents table.
    const listed = () => reader.library.snapshot();
    const first = listed().documents.find((d) => d.path.endsWith('tracemonkey.pdf'));
    expect(first).toMatchObject({ state: 'indexed', relativePath: 'tracemonkey.pdf' });
    expect(listed().roots.map((root) => root.id)).toContain(first!.rootId);
    await expect(reader.library.addFolder(readerDir)).rejects.toThrow(/read-only/);
    const writer = createCore({
      dataDir: await dataDir(),
      library: location,
      ocr: false,
      renderImages: false,
      findModels: false,
    });
    await writer.start();
    try {
      const second = createCore({ dataDir: await dataDir(), library: location, findModels: false });
      await expect(second.start()).rejects.toThrow(/Another writer is indexing/);
      await second.dispose();
      const folder = await folderWith('pdfjs/TAMReview.pdf');
      await indexInto(writer, folder);
      // The writer folds new rows into the full-text index (as it does once idle), then the reader catches up.
      await writer.index.maintenance.optimize();
      await writer.index.collections.create('Reviews');
      await writer.index.collections.add('Reviews', [join(folder, 'TAMReview.pdf')]);
      await reader.refreshReader();
      expect(await search(reader, 'technology acceptance model')).toContain(join(folder, 'TAMReview.pdf'));
      expect(listed().documents.find((d) => d.path === join(folder, 'TAMReview.pdf'))).toMatchObject({
        state: 'indexed',
        pages: expect.any(Number),
      });
      expect(reader.index.collections.get('Reviews')?.paths).toEqual([join(folder, 'TAMReview.pdf')]);
      // The first folder's documents are still there: a writer prunes only under its own folders.
      expect(reader.index.documents.list().some((d) => d.path.endsWith('tracemonkey.pdf'))).toBe(true);

      // The writer drops the folder and the collection: the reader's next refresh shows both gone.
      const tam = writer.index.documents.list().find((d) => d.path === join(folder, 'TAMReview.pdf'))!;
      await writer.library.removeFolder(tam.rootId);
      await writer.index.collections.delete('Reviews');
      const deadline = Date.now() + 60_000;
      while (writer.index.documents.get(tam.id)) {
        if (Date.now() > deadline) throw new Error('the writer did not remove the document');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await reader.refreshReader();
      expect(listed().documents.some((d) => d.id === tam.id)).toBe(false);
      expect(listed().documents.some((d) => d.path.endsWith('tracemonkey.pdf'))).toBe(true);
      expect(reader.index.collections.get('Reviews')).toBeNull();
    } finally {
      await writer.dispose();
      await reader.dispose();
    }
  }, 600_000);

  it('a writer killed -9 mid-commit leaves a readable table, and the next writer takes over and resumes', async () => {
    const folder = await folderWith(
      'pdfjs/calrgb.pdf',
      'pdfjs/issue12963.pdf',
      'docling/pdf__normal_4pages.pdf',
      'pdfjs/tracemonkey.pdf',
    );
    const child = spawn(
      process.execPath,
      [
        cli,
        'index',
        folder,
        '--library',
        store.library,
        '--no-ocr',
        '--no-images',
        '--data-dir',
        await dataDir(),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, QUIRE_S3_ENDPOINT: store.endpoint } },
    );
    const before = store.requests().dynamodb;
    // Killed once it has begun committing (DynamoDB calls beyond the lease).
    const exit = new Promise<string | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    const timer = setInterval(() => {
      if (store.requests().dynamodb > before + 8) child.kill('SIGKILL');
    }, 50);
    const signal = await exit;
    clearInterval(timer);
    expect(signal, 'the writer finished before it could be killed mid-commit').toBe('SIGKILL');
    const reader = createCore({
      dataDir: await dataDir(),
      library: location,
      ingest: false,
      findModels: false,
    });
    await reader.start();
    await reader.dispose();
    // Same machine, dead process: its lease is stale at once, so the next writer is let in and finishes.
    const writer = createCore({
      dataDir: await dataDir(),
      library: location,
      ocr: false,
      renderImages: false,
      findModels: false,
    });
    await writer.start();
    try {
      await indexInto(writer, folder);
      const states = writer.library.snapshot().documents.map((d) => d.state);
      expect(states).toEqual(['indexed', 'indexed', 'indexed', 'indexed']);
    } finally {
      await writer.dispose();
    }
  }, 600_000);

  it('the store stopped under a reader: a clear error, then the reader recovers once it is back', async () => {
    const reader = createCore({
      dataDir: await dataDir(),
      library: location,
      ingest: false,
      findModels: false,
    });
    await reader.start();
    try {
      expect((await search(reader, 'trace trees')).length).toBeGreaterThan(0);
      const port = Number(new URL(store.endpoint).port);
      await store.stop();
      await expect(search(reader, 'trace trees')).rejects.toThrow(
        /^The library at s3\+ddb:\/\/.* cannot be reached \(the connection was refused\)/,
      );
      store = await startObjectStore({
        ...keys,
        directory: storeDir,
        port,
        dynamodbPort: Number(new URL(store.dynamodbEndpoint).port),
      });
      expect((await search(reader, 'trace trees')).length).toBeGreaterThan(0);
    } finally {
      await reader.dispose();
    }
  }, 600_000);

  it('wrong credentials: a clear error that does not show the secret', async () => {
    const wrong = { AWS_ACCESS_KEY_ID: 'nobody', AWS_SECRET_ACCESS_KEY: 'a-secret-that-must-not-leak' };
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    Object.assign(process.env, wrong);
    try {
      const error = await openSharedLibrary(location, false).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(/refused these credentials/);
      expect(error?.message).not.toContain(wrong.AWS_SECRET_ACCESS_KEY);
    } finally {
      process.env.AWS_ACCESS_KEY_ID = saved.id;
      process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    }
  });
});

describe('library locations', () => {
  it('allows plain http only on a loopback endpoint and reads no keys from the location', () => {
    expect(parseLibraryLocation({ uri: 's3://b/p', endpoint: 'http://127.0.0.1:9000' }, {}).allowHttp).toBe(
      true,
    );
    expect(() => parseLibraryLocation({ uri: 's3://b/p', endpoint: 'http://10.0.0.5:9000' }, {})).toThrow(
      /plain http/,
    );
    expect(() => parseLibraryLocation({ uri: 'ftp://b/p' }, {})).toThrow(/s3:\/\/bucket/);
    expect(
      parseLibraryLocation({ uri: 's3://b/p/q/' }, { QUIRE_S3_ENDPOINT: 'https://s3.example' }),
    ).toMatchObject({
      bucket: 'b',
      prefix: 'p/q',
      endpoint: 'https://s3.example',
    });
  });

  it('the app setting names a location and never a key; a desktop reads unless it is the writer', async () => {
    const dir = await dataDir();
    await writeFile(locationSettingFile(dir), JSON.stringify({ uri: 's3://b/p', region: 'eu-west-1' }));
    expect(await readLocationSetting(dir)).toMatchObject({
      location: { bucket: 'b', region: 'eu-west-1' },
      writer: false,
    });
    await writeFile(locationSettingFile(dir), JSON.stringify({ uri: 's3://b/p', secretAccessKey: 'x' }));
    await expect(readLocationSetting(dir)).rejects.toThrow(/keys belong in the AWS variables/);
  });

  it('a user who never sets a location keeps the local data folder', async () => {
    const dir = await dataDir();
    await mkdir(dir, { recursive: true });
    const core = createCore({ dataDir: dir, ingest: false, findModels: false });
    await core.start();
    await core.dispose();
    expect(lanceFolders(dir).length).toBeGreaterThan(0);
  });
});
