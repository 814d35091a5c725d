/*
 * A document-level signal for passage search. A question is usually about one document, and that
 * document tends to hold several of the passages BM25 ranks high, while a stray passage of another
 * document that happens to share the words stands alone. Each passage's score is scaled by how much
 * of the evidence its document gathers, so a lone passage of another document falls below a slightly
 * weaker passage of the document the question is about.
 */

export interface DocumentPriorOptions {
  /** How many of a document's best passages make up its score (more would reward sheer length). */
  passagesPerDocument: number;
  /** The exponent on the document's relative score: 0 leaves the ranking alone, 1 multiplies in full. */
  weight: number;
}

/**
 * Passages the prior looks at: a document's score comes from the candidates BM25 returns, so search
 * asks for at least this many before cutting to k.
 */
export const DOCUMENT_PRIOR_DEPTH = 100;

export const DEFAULT_DOCUMENT_PRIOR: DocumentPriorOptions = { passagesPerDocument: 5, weight: 0.5 };

/**
 * Candidates re-scored with their document's prior, best first. A document's score is the sum of its
 * best `passagesPerDocument` candidate scores; each candidate's score is multiplied by
 * (its document's score / the best document's score) ^ weight. Scores must be positive (BM25's are).
 */
export function applyDocumentPrior<T extends { content_hash: string; score: number }>(
  candidates: readonly T[],
  options: DocumentPriorOptions = DEFAULT_DOCUMENT_PRIOR,
): T[] {
  const perDocument = new Map<string, number[]>();
  for (const candidate of candidates) {
    const scores = perDocument.get(candidate.content_hash) ?? [];
    scores.push(candidate.score);
    perDocument.set(candidate.content_hash, scores);
  }
  const documentScore = new Map<string, number>();
  for (const [hash, scores] of perDocument) {
    const best = scores.sort((a, b) => b - a).slice(0, options.passagesPerDocument);
    documentScore.set(
      hash,
      best.reduce((sum, score) => sum + score, 0),
    );
  }
  const top = Math.max(0, ...documentScore.values());
  if (!(top > 0) || perDocument.size < 2) return [...candidates];
  return candidates
    .map((candidate) => ({
      ...candidate,
      score: candidate.score * ((documentScore.get(candidate.content_hash) ?? 0) / top) ** options.weight,
    }))
    .sort((a, b) => b.score - a.score);
}
