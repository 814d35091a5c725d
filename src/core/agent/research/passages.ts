/*
 * The passages of a page that bear on a question: paragraphs (or windows of a long one) scored by the
 * share of the question's keywords they contain; those past a threshold are kept, best first, and at
 * least one always is.
 */
import { keywordsOf } from '../../retrieval/queryForms';
import { estimateTokens, truncateToTokens } from '../text';

const WINDOW_WORDS = 90;
/** Share of the question's keywords a passage needs to be kept beyond the first. */
const KEEP_THRESHOLD = 0.2;
const MIN_KEPT = 1;
const MAX_KEPT = 4;

function passagesOf(text: string): string[] {
  const paragraphs = text
    .split(/\n\s*\n|\n(?=[A-Z0-9•-])/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  return paragraphs.flatMap((paragraph) => {
    const words = paragraph.split(' ');
    if (words.length <= WINDOW_WORDS) return [paragraph];
    const windows: string[] = [];
    for (let at = 0; at < words.length; at += WINDOW_WORDS)
      windows.push(words.slice(at, at + WINDOW_WORDS).join(' '));
    return windows;
  });
}

/** Stems by prefix, so "revenues" meets "revenue" and "acquired" meets "acquisition" halfway. */
const stem = (word: string) => word.toLowerCase().slice(0, Math.max(4, Math.min(6, word.length - 2)));

export function scorePassage(passage: string, question: string): number {
  const wanted = [...new Set(keywordsOf(question).map(stem))];
  if (wanted.length === 0) return 0;
  const present = new Set(keywordsOf(passage).map(stem));
  return wanted.filter((word) => present.has(word)).length / wanted.length;
}

/** The kept passages, best first, within `maxTokens` together. */
export function relevantPassages(text: string, question: string, maxTokens: number): string[] {
  const scored = passagesOf(text)
    .map((passage, order) => ({ passage, order, score: scorePassage(passage, question) }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const kept: string[] = [];
  let tokens = 0;
  for (const { passage, score } of scored) {
    if (kept.length >= MAX_KEPT || (kept.length >= MIN_KEPT && score < KEEP_THRESHOLD)) break;
    const room = maxTokens - tokens;
    if (room <= 20) break;
    const piece = estimateTokens(passage) > room ? truncateToTokens(passage, room) : passage;
    kept.push(piece);
    tokens += estimateTokens(piece);
  }
  return kept;
}
