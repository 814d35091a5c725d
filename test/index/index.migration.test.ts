import { connect, Index as LanceIndex } from '@lancedb/lancedb';
import { Field, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Index } from '../../src/core/index/openIndex';
import { pagesSchema, SCHEMA_VERSION } from '../../src/core/index/schema';
import { tempDir } from '../helpers/shared';
import { sha256 } from './helpers';

const text = (name: string, nullable = false) => new Field(name, new Utf8(), nullable);

/** The first layout: chunks searched on their raw text, no search_text column. */
const v1Chunks = new Schema([
  text('id'),
  text('content_hash'),
  new Field('chunk_index', new Int32(), false),
  new Field('page', new Int32(), false),
  text('text'),
  text('heading', true),
  new Field('char_start', new Int32(), false),
  new Field('char_end', new Int32(), false),
  text('boxes'),
]);

/** Pages kept their version 1 layout until version 3 added where their text came from. */
const v1Pages = new Schema(pagesSchema.fields.filter((field) => field.name !== 'text_source'));

async function writeV1Store(dir: string, hash: string): Promise<void> {
  const db = await connect(dir);
  const meta = {
    schemaVersion: 1,
    text: { active: null, pending: null },
    page: { active: null, pending: null },
  };
  await db.createTable('meta', [{ key: 'index', value: JSON.stringify(meta) }]);
  await db.createTable(
    'documents',
    [
      {
        id: 'legacy',
        path: '/old/legacy.pdf',
        root_id: 'r',
        content_hash: hash,
        kind: 'pdf',
        title: 'Legacy',
        pages: 1,
        bytes: 10,
        modified_ms: 1,
        state: 'indexed',
        error: null,
        indexed_at: 2,
      },
    ],
    {
      schema: new Schema([
        text('id'),
        text('path'),
        text('root_id'),
        text('content_hash', true),
        text('kind'),
        text('title', true),
        new Field('pages', new Int32(), true),
        new Field('bytes', new Float64(), false),
        new Field('modified_ms', new Float64(), false),
        text('state'),
        text('error', true),
        new Field('indexed_at', new Float64(), true),
      ]),
    },
  );
  const chunks = await db.createEmptyTable('chunks', v1Chunks);
  await chunks.add([
    {
      id: `${hash}:0`,
      content_hash: hash,
      chunk_index: 0,
      page: 1,
      text: 'Ferry timetable for winter',
      heading: 'Harbour',
      char_start: 0,
      char_end: 26,
      boxes: '[]',
    },
  ]);
  await chunks.createIndex('text', { config: LanceIndex.fts() });
  await db.createTable(
    'pages',
    [
      {
        id: `${hash}:1`,
        content_hash: hash,
        page: 1,
        width: 100,
        height: 100,
        needs_ocr: false,
        image_full: null,
        image_thumbnail: null,
        image_width: null,
        image_height: null,
        text: 'Ferry timetable for winter',
      },
    ],
    { schema: v1Pages },
  );
  db.close();
}

describe('Index schema migration', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir('quire-index-');
  });
  afterEach(() => dir.cleanup());

  it('opens a version 1 index, migrates it, and searches the new column', async () => {
    const hash = sha256('legacy');
    await writeV1Store(dir.path, hash);
    const store = await Index.open({ uri: dir.path });
    try {
      const db = await connect(dir.path);
      const [metaRow] = await (await db.openTable('meta')).query().toArray();
      expect(JSON.parse(metaRow.value).schemaVersion).toBe(SCHEMA_VERSION);
      const chunks = await db.openTable('chunks');
      expect((await chunks.schema()).fields.map((f) => f.name)).toContain('search_text');
      const fullText = (await chunks.listIndices()).filter((index) => index.indexType === 'FTS');
      expect(fullText.map((index) => index.columns)).toEqual([['search_text']]);
      const pages = await db.openTable('pages');
      expect((await pages.schema()).fields.map((f) => f.name)).toContain('text_source');
      db.close();
      // The heading only reaches BM25 through the migrated column.
      const hits = await store.search.chunks('harbour ferry');
      expect(hits[0]).toMatchObject({ documentId: 'legacy', page: 1, path: '/old/legacy.pdf' });
      expect(store.documents.get('legacy')!.title).toBe('Legacy');
      // Pages read before provenance was recorded say so.
      expect((await store.content.page('legacy', 1)).textSource).toBeNull();
    } finally {
      await store.dispose();
    }
    // A second open finds nothing left to migrate.
    const again = await Index.open({ uri: dir.path });
    expect((await again.search.chunks('harbour'))[0]!.documentId).toBe('legacy');
    await again.dispose();
  });

  it('refuses an index from a newer version instead of damaging it', async () => {
    const db = await connect(dir.path);
    const meta = {
      schemaVersion: SCHEMA_VERSION + 1,
      text: { active: null, pending: null },
      page: { active: null, pending: null },
    };
    await db.createTable('meta', [{ key: 'index', value: JSON.stringify(meta) }]);
    db.close();
    await expect(Index.open({ uri: dir.path })).rejects.toMatchObject({ code: 'unsupported' });
  });
});
