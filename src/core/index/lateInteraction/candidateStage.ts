import { CentroidLists } from './centroidLists';
import { CentroidPostings } from './centroidPostings';
import type { Codebook } from './codebook';
import { createCoarseScorer, type CoarseScorer } from './coarseScores';
import type { CompactPageStore } from './compactPageStore';
import type { PrunedMaxSim } from './prunedMaxSim';
import { TopK } from './topK';

export interface CandidateSettings {
  /** Per query vector, the nearest centroids the probe step follows; 0 scores every page coarsely. */
  probeCentroids: number;
  /** Pages the probe step hands on to coarse scoring. */
  probePages: number;
  /** Pages coarse scoring hands on to the pruned middle step; at most the count asked for turns it off. */
  shortlist: number;
  /** Cosine margin below a page's best centroid within which the middle step still looks. */
  pruneMargin: number;
}

/**
 * Picks the coded pages a search decodes, narrowing in steps that each cost less per page than the
 * next: the probe (inverted lists of the query's nearest centroids, PLAID's first stage), coarse
 * scores (each page vector stands in for its centroid) and, when asked, the pruned middle step.
 * Holds what those steps read per slot, in the coded store's slot order.
 */
export class CandidateStage {
  /** Per coded slot: the distinct centroids its vectors fall into. */
  private readonly lists = new CentroidLists();
  private readonly postings: CentroidPostings;
  private readonly coarse: CoarseScorer = createCoarseScorer();

  constructor(centroids: number) {
    this.postings = new CentroidPostings(centroids);
  }

  get bytes(): number {
    return this.lists.flatCodes.byteLength + this.lists.starts.byteLength + this.postings.bytes;
  }

  /** Records the next slot from its vectors' centroid ids. */
  append(ids: ArrayLike<number>): void {
    const distinct = [...new Set(Array.from(ids))];
    const slot = this.lists.slotCount;
    this.lists.append(distinct);
    this.postings.add(slot, distinct);
  }

  /** After the store renumbered its slots: `oldSlotOf[slot]` is where each slot was. */
  renumber(slotCount: number, oldSlotOf: Int32Array): void {
    this.lists.rebuild(slotCount, (slot) => this.lists.idsOf(oldSlotOf[slot]!));
    this.postings.rebuild(slotCount, (slot) => this.lists.idsOf(slot));
  }

  /** The `count` live slots most likely to hold the best pages, best first. */
  select(
    query: Float32Array,
    queryCount: number,
    codebook: Codebook,
    pruned: PrunedMaxSim,
    coded: CompactPageStore,
    count: number,
    settings: CandidateSettings,
  ): number[] {
    const table = codebook.scoreQuery(query, queryCount);
    const coarseCount = Math.max(count, Math.min(settings.shortlist, coded.size));
    const probePages = Math.max(settings.probePages, coarseCount);
    // Probing pays off only when it leaves coarse scoring a small share of the pages.
    const probed =
      settings.probeCentroids > 0 && coded.size > 2 * probePages
        ? this.postings.probe(
            table,
            queryCount,
            settings.probeCentroids,
            this.lists.slotCount,
            (slot) => coded.isLive(slot),
            probePages,
          )
        : null;
    const slots = this.coarseBest(table, codebook.size, queryCount, coded, probed, coarseCount);
    if (coarseCount <= count) return slots;
    const middle = new TopK(count);
    for (const slot of slots) {
      const score = pruned.score(
        query,
        queryCount,
        table,
        coded.ids,
        coded.residuals,
        coded.firstRow(slot),
        coded.rowCount(slot),
        settings.pruneMargin,
      );
      middle.offer(slot, score);
    }
    return middle.sorted().map(({ id }) => id);
  }

  /** The best `count` live slots by coarse score, over `among` (or every slot when null). */
  private coarseBest(
    table: Float32Array,
    centroids: number,
    queryCount: number,
    coded: CompactPageStore,
    among: number[] | null,
    count: number,
  ): number[] {
    const lists = this.lists;
    let codes = lists.flatCodes;
    let starts = lists.starts;
    if (among) {
      starts = new Int32Array(among.length + 1);
      among.forEach((slot, i) => (starts[i + 1] = starts[i]! + lists.idsOf(slot).length));
      codes = new Uint16Array(starts[among.length]!);
      among.forEach((slot, i) => codes.set(lists.idsOf(slot), starts[i]!));
    }
    const pages = among ? among.length : lists.slotCount;
    const estimates = this.coarse.score(table, centroids, queryCount, codes, starts, pages);
    const top = new TopK(count);
    for (let i = 0; i < pages; i++) {
      const slot = among ? among[i]! : i;
      if (!coded.isLive(slot)) continue;
      // A page with no vectors has no best match: its exact MaxSim is 0.
      top.offer(slot, coded.rowCount(slot) === 0 ? 0 : estimates[i]!);
    }
    return top.sorted().map(({ id }) => id);
  }
}
