import type { PageWord } from '../../../../shared/domain/pages';
import type { BoundingBox } from '../../../../shared/domain/search';

/**
 * Which words of a page to highlight for a citation: the sentence of the cited passage that best
 * matches the answer's sentence, drawn as one box per run of words on a line. The same code serves
 * PDF text layers, OCR'd scans and Quire's laid-out pages, since all three arrive as positioned words.
 */

export interface SentenceHighlight {
  /** One box per run of highlighted words on a line, in page points. */
  runs: BoundingBox[];
  /** The highlighted words, as the page has them. */
  text: string;
  /**
   * Why the highlight may be off, in the user's words; null when every box is a word's own box and
   * the sentence was found word for word.
   */
  approximate: string | null;
}

export interface CitedPassage {
  /** The boxes of the whole passage, as the index stored them. */
  boxes: readonly BoundingBox[];
  /** The answer's sentence that cites the passage, when known. */
  claim: string | null;
  /** The passage's text (or its opening), to find it on the page when it has no boxes. */
  passage: string | null;
}

/** Below this overlap the answer's sentence is a paraphrase rather than a quote. */
const LOOSE_MATCH = 0.5;

const SENTENCE_END = /[.!?]["'”’)\]]*$/;

export function normalizeWord(word: string): string {
  return word
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

function tokens(text: string): string[] {
  return text
    .split(/\s+/)
    .map(normalizeWord)
    .filter((token) => token.length > 0);
}

function centreInside(box: BoundingBox, area: BoundingBox, slack: number): boolean {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return (
    cx >= area.x - slack &&
    cx <= area.x + area.width + slack &&
    cy >= area.y - slack &&
    cy <= area.y + area.height + slack
  );
}

/** Words of the page that belong to the passage: inside its boxes, else the stretch matching its text. */
function passageWords(words: readonly PageWord[], cited: CitedPassage): PageWord[] {
  if (cited.boxes.length > 0) {
    const inside = words.filter((word) => cited.boxes.some((area) => centreInside(word.box, area, 2)));
    if (inside.length > 0) return inside;
  }
  return [...words];
}

export function splitSentences(words: readonly PageWord[]): PageWord[][] {
  const sentences: PageWord[][] = [];
  let current: PageWord[] = [];
  for (const word of words) {
    current.push(word);
    if (SENTENCE_END.test(word.text)) {
      sentences.push(current);
      current = [];
    }
  }
  if (current.length > 0) sentences.push(current);
  return sentences;
}

/** Share of the sentence's words that the claim also uses, weighted towards the claim's coverage. */
function overlap(sentence: readonly PageWord[], claim: ReadonlySet<string>): number {
  const own = new Set(sentence.map((word) => normalizeWord(word.text)).filter(Boolean));
  if (own.size === 0 || claim.size === 0) return 0;
  let shared = 0;
  for (const token of own) if (claim.has(token)) shared++;
  const precision = shared / own.size;
  const recall = shared / claim.size;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** Joins words that follow each other on one line into one box. */
export function wordRuns(words: readonly PageWord[]): BoundingBox[] {
  const runs: BoundingBox[] = [];
  let last: PageWord | null = null;
  for (const word of words) {
    const previous = runs[runs.length - 1];
    if (previous && last && last.line === word.line) {
      const left = Math.min(previous.x, word.box.x);
      const top = Math.min(previous.y, word.box.y);
      const right = Math.max(previous.x + previous.width, word.box.x + word.box.width);
      const bottom = Math.max(previous.y + previous.height, word.box.y + word.box.height);
      runs[runs.length - 1] = { x: left, y: top, width: right - left, height: bottom - top };
    } else {
      runs.push({ ...word.box });
    }
    last = word;
  }
  return runs;
}

/** The highlight for a citation on a page whose words are known; null when no word of the passage is there. */
export function highlightSentence(words: readonly PageWord[], cited: CitedPassage): SentenceHighlight | null {
  const candidates = passageWords(words, cited);
  if (candidates.length === 0) return null;
  const sentences = splitSentences(candidates);
  const claim = new Set(tokens(cited.claim ?? cited.passage ?? ''));
  let best: PageWord[] | null = null;
  let bestScore = 0;
  for (const sentence of sentences) {
    const score = overlap(sentence, claim);
    if (score > bestScore) {
      best = sentence;
      bestScore = score;
    }
  }
  const chosen = best ?? candidates;
  const reasons: string[] = [];
  if (!best) reasons.push('no sentence of the passage matches the answer, so the whole passage is marked');
  else if (cited.claim === null)
    reasons.push('the sentence was chosen from the passage, not from the answer');
  else if (bestScore < LOOSE_MATCH)
    reasons.push('the answer words it differently, so the closest sentence is marked');
  if (chosen.some((word) => word.estimated)) {
    reasons.push('word positions inside a line are estimated');
  }
  return {
    runs: wordRuns(chosen),
    text: chosen.map((word) => word.text).join(' '),
    approximate: reasons.length > 0 ? `Approximate highlight: ${reasons.join('; ')}.` : null,
  };
}
