import type { Connection } from '@lancedb/lancedb';
import { detectDocumentLanguage, samplePages } from '../../language/detectLanguage';
import { sqlString } from '../sql';
import { TABLES } from '../schema';

/** Documents detected per write: one commit per batch keeps the table's versions few. */
const detectBatch = 64;

/**
 * Schema 4 -> 5: adds `language` to documents, then detects it for indexed documents from the page
 * text the index already holds (a sample of pages, as at ingestion). Only rows still null are read,
 * so a run killed half-way resumes where it stopped; a document with no text gets `und`.
 */
export async function detectStoredLanguages(db: Connection): Promise<void> {
  const names = await db.tableNames();
  if (!names.includes(TABLES.documents)) return;
  const documents = await db.openTable(TABLES.documents);
  const columns = (await documents.schema()).fields.map((field) => field.name);
  if (!columns.includes('language')) {
    await documents.addColumns([{ name: 'language', valueSql: 'CAST(NULL AS STRING)' }]);
  }
  const pages = names.includes(TABLES.pages) ? await db.openTable(TABLES.pages) : null;
  const pending = "language IS NULL AND state = 'indexed' AND content_hash IS NOT NULL";
  for (;;) {
    const rows = (await documents
      .query()
      .where(pending)
      .select(['id', 'content_hash', 'pages'])
      .limit(detectBatch)
      .toArray()) as Array<{ id: string; content_hash: string; pages: number | null }>;
    if (rows.length === 0) break;
    const detected = [];
    for (const row of rows) {
      const texts = pages ? await sampledTexts(pages, row.content_hash, row.pages ?? 0) : [];
      detected.push({ id: row.id, language: detectDocumentLanguage(texts) });
    }
    await documents.mergeInsert('id').whenMatchedUpdateAll().execute(detected);
  }
}

async function sampledTexts(
  pages: Awaited<ReturnType<Connection['openTable']>>,
  contentHash: string,
  pageCount: number,
): Promise<string[]> {
  // The sample's pages only: a long document's other pages are never read.
  // A row that never learnt its page count is read from its first pages.
  const wanted = samplePages(pageCount > 0 ? pageCount : 8).map((index) => index + 1);
  const rows = (await pages
    .query()
    .where(`content_hash = ${sqlString(contentHash)} AND page IN (${wanted.join(', ')})`)
    .select(['page', 'text'])
    .toArray()) as Array<{ page: number; text: string | null }>;
  return rows.sort((a, b) => a.page - b.page).map((row) => row.text ?? '');
}
