import { join } from 'node:path';
import { connect } from '@lancedb/lancedb';
import { Schema } from 'apache-arrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { parseDocument } from '../../src/core/documents/parseDocument';
import { migrate, MIGRATIONS } from '../../src/core/index/maintenance/migrations';
import { Index } from '../../src/core/index/openIndex';
import { documentsSchema, pagesSchema, SCHEMA_VERSION } from '../../src/core/index/schema';
import { PARAGRAPHS } from '../language/samples';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';
import { sha256 } from './helpers';

const noCorpus = withoutCorpus('the language migration of a corpus PDF');

/** Version 4's documents had no language column; every other table kept its layout. */
const v4Documents = new Schema(documentsSchema.fields.filter((field) => field.name !== 'language'));

const german = PARAGRAPHS.find((sample) => sample.language === 'de')!.text;

interface V4Document {
  id: string;
  hash: string | null;
  state: string;
  pageTexts: string[];
}

async function writeV4Store(dir: string, documents: V4Document[]): Promise<void> {
  const db = await connect(dir);
  const meta = {
    schemaVersion: 4,
    text: { active: null, pending: null },
    page: { active: null, pending: null },
  };
  await db.createTable('meta', [{ key: 'index', value: JSON.stringify(meta) }]);
  await db.createTable(
    'documents',
    documents.map((doc) => ({
      id: doc.id,
      path: `/library/${doc.id}.pdf`,
      root_id: 'r',
      content_hash: doc.hash,
      kind: 'pdf',
      title: null,
      pages: doc.pageTexts.length || null,
      bytes: 10,
      modified_ms: 1,
      state: doc.state,
      error: null,
      indexed_at: doc.state === 'indexed' ? 2 : null,
    })),
    { schema: v4Documents },
  );
  const pages = documents.flatMap((doc) =>
    doc.hash
      ? doc.pageTexts.map((text, i) => ({
          id: `${doc.hash}:${i + 1}`,
          content_hash: doc.hash,
          page: i + 1,
          width: 612,
          height: 792,
          needs_ocr: text === '',
          image_full: null,
          image_thumbnail: null,
          image_width: null,
          image_height: null,
          text,
          text_source: null,
        }))
      : [],
  );
  await db.createTable('pages', pages, { schema: pagesSchema });
  db.close();
}

async function languages(dir: string): Promise<Record<string, string | null>> {
  const db = await connect(dir);
  const rows = await (await db.openTable('documents')).query().select(['id', 'language']).toArray();
  db.close();
  return Object.fromEntries(rows.map((row) => [String(row.id), (row.language as string | null) ?? null]));
}

describe('Document language migration (schema 4 -> 5)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let english: string[] = [];
  beforeEach(async () => {
    dir = await tempDir('quire-language-migration-');
    if (!noCorpus && english.length === 0) {
      const parsed = await parseDocument(join(corpusDir, 'pdfjs/tracemonkey.pdf'), { kind: 'pdf' });
      english = parsed.pages.map((page) => page.text);
    }
  });
  afterEach(() => dir.cleanup());

  it.skipIf(noCorpus)(
    'adds the column and detects each indexed document from its stored pages',
    async () => {
      await writeV4Store(dir.path, [
        { id: 'paper', hash: sha256('paper'), state: 'indexed', pageTexts: english },
        { id: 'wartung', hash: sha256('wartung'), state: 'indexed', pageTexts: [german, german] },
        { id: 'scan', hash: sha256('scan'), state: 'indexed', pageTexts: ['', ''] },
        { id: 'waiting', hash: null, state: 'listed', pageTexts: [] },
      ]);
      const store = await Index.open({ uri: dir.path });
      try {
        expect(store.documents.get('paper')!.language).toBe('eng');
        expect(store.documents.get('wartung')!.language).toBe('deu');
        // No text: said as such, not guessed.
        expect(store.documents.get('scan')!.language).toBe('und');
        // Not read yet: ingestion will detect it.
        expect(store.documents.get('waiting')!.language).toBeNull();
      } finally {
        await store.dispose();
      }
      const db = await connect(dir.path);
      const [metaRow] = await (await db.openTable('meta')).query().toArray();
      expect(JSON.parse(metaRow.value).schemaVersion).toBe(SCHEMA_VERSION);
      db.close();
      // A second open finds nothing left to migrate, and the values stay.
      const again = await Index.open({ uri: dir.path });
      expect(again.documents.get('wartung')!.language).toBe('deu');
      await again.dispose();
    },
    120_000,
  );

  it('resumes a run stopped half-way: rows already done are not read again', async () => {
    // 150 documents: more than one batch, so the loop has to come back for the rest.
    const docs: V4Document[] = Array.from({ length: 150 }, (_, i) => ({
      id: `doc-${i}`,
      hash: sha256(`doc-${i}`),
      state: 'indexed',
      pageTexts: [german],
    }));
    await writeV4Store(dir.path, docs);
    // What a run killed after its first batch leaves: the column, some rows filled.
    {
      const db = await connect(dir.path);
      const table = await db.openTable('documents');
      await table.addColumns([{ name: 'language', valueSql: 'CAST(NULL AS STRING)' }]);
      // A value no detection gives, so a row read again would show.
      await table.update({ where: "id IN ('doc-0', 'doc-1')", values: { language: 'zzz' } });
      db.close();
    }
    const db = await connect(dir.path);
    const recorded: number[] = [];
    await migrate(db, 4, 5, async (version) => void recorded.push(version), MIGRATIONS);
    expect(recorded).toEqual([5]);
    const found = await languages(dir.path);
    expect(found['doc-0']).toBe('zzz');
    expect(found['doc-1']).toBe('zzz');
    const rest = Object.entries(found).filter(([id]) => id !== 'doc-0' && id !== 'doc-1');
    expect(rest).toHaveLength(148);
    expect(rest.every(([, language]) => language === 'deu')).toBe(true);
    // Running the step again changes nothing.
    await migrate(db, 4, 5, async () => undefined, MIGRATIONS);
    expect(await languages(dir.path)).toEqual(found);
    db.close();
  }, 120_000);
});
