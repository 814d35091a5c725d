import { connect, Index as LanceIndex } from '@lancedb/lancedb';
import { abortable } from '../../common/abortable';

/**
 * Of the given words, those that share a stem with `word` ("transformation" for "transformer"), by the
 * index's own English stemmer: they go into a throwaway in-memory table with the same full-text
 * settings and `word` is searched there, so "related" means exactly what the index matched on.
 */
export async function stemSiblings(
  word: string,
  candidates: Iterable<string>,
  signal?: AbortSignal,
): Promise<Set<string>> {
  // A stem keeps the word's first letters, so words that start otherwise cannot share it.
  const head = word.slice(0, 2);
  const words = [...new Set(candidates)].filter((candidate) => candidate.startsWith(head));
  if (words.length === 0) return new Set();
  const db = await connect('memory://');
  try {
    const table = await db.createTable(
      'words',
      words.map((candidate) => ({ word: candidate })),
    );
    try {
      await abortable(
        table.createIndex('word', {
          config: LanceIndex.fts({ stem: true, language: 'English', removeStopWords: false }),
        }),
        signal,
      );
      const rows = await abortable(
        table
          .query()
          .fullTextSearch(word, { columns: 'word' })
          .select(['word', '_score'])
          .limit(words.length)
          .toArray(),
        signal,
      );
      return new Set(rows.map((row) => String((row as { word: string }).word)));
    } finally {
      table.close();
    }
  } finally {
    db.close();
  }
}
