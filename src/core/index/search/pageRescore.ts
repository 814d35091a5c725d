import type { Table } from '@lancedb/lancedb';
import { abortable } from '../../common/abortable';
import { createBestMatch } from '../lateInteraction/bestMatch';
import { sqlIn } from '../sql';
import { inBatches } from '../tableIo';
import { checkHalfCell } from '../vectors/pageVectorCells';

/**
 * Pages the in-memory index hands to fp16 re-scoring. Its stored vectors are pooled and coded, so
 * its order near the top is approximate; exact MaxSim over the full-precision vectors of its best
 * couple of dozen pages restores the order of exact search over the raw vectors (`npm run bench --
 * pages`, 10k pages x 850 vectors: recall@10 0.980 at 24, the same as at 32; 0.962 at 16).
 */
export const PAGE_RESCORE_DEPTH = 24;

/**
 * Re-ranks `ranked` by exact MaxSim over each page's fp16 vectors read from the page vector table.
 * A page whose row has gone (deleted meanwhile) is dropped, never shown with a stale score.
 */
export async function rescorePages(
  table: Table,
  ranked: Array<{ key: string; score: number }>,
  query: Float32Array,
  queryCount: number,
  dimensions: number,
  signal: AbortSignal | undefined,
): Promise<Array<{ key: string; score: number }>> {
  const kernel = createBestMatch(dimensions);
  kernel.setLeft(query, queryCount);
  const scores = new Map<string, number>();
  for (const ids of inBatches(ranked.map((found) => found.key))) {
    const rows = table
      .query()
      .where(sqlIn('page_id', ids))
      .select(['page_id', 'vector_count', 'vectors_f16'])
      .toArray();
    for (const row of await abortable(rows, signal)) {
      signal?.throwIfAborted();
      const count = Number(row.vector_count ?? 0);
      const cell = row.vectors_f16 as Uint8Array | null;
      if (count === 0 || !cell) continue;
      checkHalfCell(cell, count, dimensions);
      scores.set(String(row.page_id), kernel.sumOfBestHalves(cell, count));
    }
  }
  return ranked
    .flatMap((found) => {
      const score = scores.get(found.key);
      return score === undefined ? [] : [{ key: found.key, score }];
    })
    .sort((a, b) => b.score - a.score);
}
