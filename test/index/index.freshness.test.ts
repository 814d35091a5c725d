import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/core/documents/parseDocument';
import { Index } from '../../src/core/index/openIndex';
import { corpusDir, tempDir } from '../helpers/shared';

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
    await add(store, 'four', 'b', join(corpusDir, 'docling', 'pdf__normal_4pages.pdf'));
    await add(store, 'paper', 'a', join(corpusDir, 'pdfjs', 'tracemonkey.pdf'));
    for (const query of ['Trace-based Just-in-Time Type Specialization', 'tracing']) {
      const [hit] = await store.search.chunks(query, { k: 3 });
      expect(hit?.documentId, query).toBe('paper');
    }
  }, 60_000);
});
