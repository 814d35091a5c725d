/**
 * Word error rate: word-level edit distance (substitutions, insertions, deletions) over the number
 * of reference words. Words are compared lower-cased with punctuation dropped, so "state-of-the-art"
 * and "state—of—the-art" are the same three... four words either way.
 */
export function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Edits to turn the reference's words into the hypothesis's. */
export function wordEdits(reference: string, hypothesis: string): { edits: number; referenceWords: number } {
  const ref = words(reference);
  const hyp = words(hypothesis);
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const current = [i];
    for (let j = 1; j <= hyp.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return { edits: previous[hyp.length]!, referenceWords: ref.length };
}
