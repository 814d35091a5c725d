/**
 * Runs `run` over `pages` cut into batches, at most `lanes` batches at once, and returns the results in
 * page order; the first failure stops new batches and rejects.
 */
export async function inBatches<T>(
  pages: number[],
  batchPages: number,
  lanes: number,
  run: (batch: number[]) => Promise<T[]>,
): Promise<T[]> {
  const batches: number[][] = [];
  for (let start = 0; start < pages.length; start += batchPages) {
    batches.push(pages.slice(start, start + batchPages));
  }
  const results: T[][] = [];
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < batches.length) {
      const at = next++;
      results[at] = await run(batches[at]!).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, batches.length) }, lane));
  return results.flat();
}

export function range(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i + 1);
}
