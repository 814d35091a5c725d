/** The constant from Cormack et al.: damps the weight of the very top ranks. */
export const RRF_K = 60;

/**
 * Reciprocal-rank fusion: each list contributes 1 / (k + rank) for every key it ranks; keys are
 * returned best first. Ties keep the order in which keys were first seen.
 */
export function reciprocalRankFusion(lists: string[][], k = RRF_K): Array<{ key: string; score: number }> {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((key, rank) => scores.set(key, (scores.get(key) ?? 0) + 1 / (k + rank + 1)));
  }
  return [...scores].map(([key, score]) => ({ key, score })).sort((a, b) => b.score - a.score);
}
