import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/core/documents/parseDocument';
import { Index } from '../../src/core/index/openIndex';
import { writeSamplePdfs } from '../helpers/samplePdfs';
import { tempDir } from '../helpers/shared';

let store: Index | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await store?.dispose();
  await cleanup?.();
});

async function add(index: Index, id: string, hashChar: string, path: string) {
  const parsed = await parseDocument(path, { kind: 'pdf' });
  const contentHash = hashChar.repeat(64);
  await index.content.put(contentHash, parsed, [], { fileName: 'file.pdf' });
  await index.documents.upsert({
    id,
    path,
    rootId: 'root',
    contentHash,
    kind: 'pdf',
    title: null,
    pages: parsed.pages.length,
    bytes: 1,
    modifiedMs: 1,
    state: 'indexed',
    error: null,
    indexedAt: 1,
  });
}

describe('search freshness', () => {
  it('finds a document written after the full-text index was built, without an optimize', async () => {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    store = await Index.open({ uri: join(dir.path, 'index') });
    const [survey, manual] = await writeSamplePdfs(dir.path);
    await add(store, 'manual', 'b', manual!);
    await add(store, 'survey', 'a', survey!);
    for (const query of ['heliotrope calibration', 'drainage']) {
      const [hit] = await store.search.chunks(query, { k: 3 });
      expect(hit?.documentId, query).toBe('survey');
    }
  }, 60_000);
});
