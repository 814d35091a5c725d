import { TopK } from './topK';

/**
 * For each codebook centroid, the page slots holding a vector that falls into it: the inverted
 * lists behind the probe stage (PLAID's candidate generation). A search follows only each query
 * vector's few nearest centroids, so its cost grows with the pages near the query rather than with
 * the whole library. Removed slots stay listed until the next `rebuild`; callers skip dead slots.
 */
export class CentroidPostings {
  private lists: Int32Array[];
  private lengths: Int32Array;
  /** Per slot, the last (search, query vector) pass that counted it; saves clearing per pass. */
  private seenIn = new Int32Array(0);
  private pass = 0;
  private gains = new Float32Array(0);

  constructor(private readonly centroids: number) {
    this.lists = Array.from({ length: centroids }, () => new Int32Array(8));
    this.lengths = new Int32Array(centroids);
  }

  /** Entries held, live and dead (4 bytes each, plus growth room). */
  get bytes(): number {
    return this.lists.reduce((sum, list) => sum + list.byteLength, 0);
  }

  /** Lists `slot` under each of its distinct centroid ids. */
  add(slot: number, distinctIds: ArrayLike<number>): void {
    for (let i = 0; i < distinctIds.length; i++) {
      const centroid = distinctIds[i]!;
      let list = this.lists[centroid]!;
      const length = this.lengths[centroid]!;
      if (length === list.length) {
        const grown = new Int32Array(list.length * 2);
        grown.set(list);
        this.lists[centroid] = list = grown;
      }
      list[length] = slot;
      this.lengths[centroid] = length + 1;
    }
  }

  /** Lists every slot again from scratch (after slots were renumbered). */
  rebuild(slotCount: number, idsOfSlot: (slot: number) => ArrayLike<number>): void {
    this.lists = Array.from({ length: this.centroids }, () => new Int32Array(8));
    this.lengths.fill(0);
    for (let slot = 0; slot < slotCount; slot++) this.add(slot, idsOfSlot(slot));
  }

  /**
   * The `count` live slots that gain most over a floor when each query vector follows only its
   * `probeCentroids` nearest centroids: per query vector, a slot listed under one of them gains
   * that centroid's cosine minus the cosine of the nearest centroid not followed. Ranking by gain
   * ranks by an upper bound of the coarse score (an unfollowed centroid scores at most the floor),
   * so a page near the query cannot fall behind one that merely lacks the followed centroids.
   * `table[c * queryCount + q]` holds centroid-by-query cosines.
   */
  probe(
    table: Float32Array,
    queryCount: number,
    probeCentroids: number,
    slotCount: number,
    isLive: (slot: number) => boolean,
    count: number,
  ): number[] {
    if (this.seenIn.length < slotCount) {
      this.seenIn = new Int32Array(slotCount);
      this.gains = new Float32Array(slotCount);
    }
    const gains = this.gains;
    gains.fill(0, 0, slotCount);
    const follow = Math.min(probeCentroids, this.centroids - 1);
    for (let q = 0; q < queryCount; q++) {
      const nearest = new TopK(follow + 1);
      for (let c = 0; c < this.centroids; c++) nearest.offer(c, table[c * queryCount + q]!);
      const ranked = nearest.sorted();
      const floor = ranked[follow]?.score ?? 0;
      this.pass = this.pass === 0x7fffffff ? 1 : this.pass + 1;
      if (this.pass === 1) this.seenIn.fill(0);
      // Nearest first: a slot gains from the best followed centroid it holds, once per query vector.
      for (let r = 0; r < Math.min(follow, ranked.length); r++) {
        const { id: centroid, score } = ranked[r]!;
        const gain = score - floor;
        const list = this.lists[centroid]!;
        const length = this.lengths[centroid]!;
        for (let i = 0; i < length; i++) {
          const slot = list[i]!;
          if (this.seenIn[slot] === this.pass) continue;
          this.seenIn[slot] = this.pass;
          gains[slot] = gains[slot]! + gain;
        }
      }
    }
    const best = new TopK(count);
    for (let slot = 0; slot < slotCount; slot++) if (isLive(slot)) best.offer(slot, gains[slot]!);
    return best.sorted().map(({ id }) => id);
  }
}
