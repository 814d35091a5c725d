/*
 * The language of a document and of a question, by franc-min (character trigrams over the 82
 * languages with 8M+ speakers; ISO 639-3 codes). A document is judged from a sample of prose lines
 * spread over its pages, not from every page: tables of figures and headers mislead trigram
 * statistics, and a few thousand characters tell as much as the whole text.
 */
import { franc, francAll } from 'franc-min';
import { UNDETERMINED_LANGUAGE } from '../../shared/domain/language';

/** Pages looked at, spread evenly over the document. */
const SAMPLE_PAGES = 8;
/** Characters of prose in the sample, shared among those pages. */
const SAMPLE_CHARS = 2400;
/** Fewer letters than this in the sample is too little text to say. */
const DOCUMENT_MIN_LETTERS = 50;
/** A line is prose when it has this many letters and letters make most of it. */
const LINE_MIN_LETTERS = 12;
const LINE_LETTER_SHARE = 0.6;
/** A question shorter than this (in letters) is not judged at all. */
const QUESTION_MIN_LETTERS = 15;
/** The runner-up's score relative to the best (1.0): above this the question is too close to call. */
const QUESTION_MAX_RUNNER_UP = 0.9;

const letterCount = (text: string) => text.match(/\p{L}/gu)?.length ?? 0;

function isProse(line: string): boolean {
  const letters = letterCount(line);
  return letters >= LINE_MIN_LETTERS && letters >= line.replace(/\s/g, '').length * LINE_LETTER_SHARE;
}

/** Up to SAMPLE_PAGES page numbers (0-based) spread evenly from the first page to the last. */
export function samplePages(count: number): number[] {
  if (count <= SAMPLE_PAGES) return Array.from({ length: count }, (_, i) => i);
  const step = (count - 1) / (SAMPLE_PAGES - 1);
  return Array.from({ length: SAMPLE_PAGES }, (_, i) => Math.round(i * step));
}

/** Prose lines from pages spread over the document, about SAMPLE_CHARS in all. */
export function languageSample(pageTexts: readonly string[]): string {
  const chosen = samplePages(pageTexts.length);
  const perPage = Math.ceil(SAMPLE_CHARS / Math.max(1, chosen.length));
  const lines: string[] = [];
  for (const index of chosen) {
    let taken = 0;
    for (const line of (pageTexts[index] ?? '').split(/\n+/)) {
      if (taken >= perPage) break;
      const trimmed = line.trim();
      if (!isProse(trimmed)) continue;
      lines.push(trimmed);
      taken += trimmed.length;
    }
  }
  return lines.join('\n');
}

/** The document's language (ISO 639-3), or `und` when its text holds too little prose to tell. */
export function detectDocumentLanguage(pageTexts: readonly string[]): string {
  const sample = languageSample(pageTexts);
  if (letterCount(sample) < DOCUMENT_MIN_LETTERS) return UNDETERMINED_LANGUAGE;
  return franc(sample, { minLength: DOCUMENT_MIN_LETTERS });
}

/**
 * The question's language when the detector is sure; null when the question is short or two
 * languages score too close ("Umsatz 2023?" reads as several), so nothing is done on a guess.
 */
export function detectQuestionLanguage(question: string): string | null {
  if (letterCount(question) < QUESTION_MIN_LETTERS) return null;
  const [best, runnerUp] = francAll(question, { minLength: QUESTION_MIN_LETTERS });
  if (!best || best[0] === UNDETERMINED_LANGUAGE) return null;
  if (runnerUp && runnerUp[1] > QUESTION_MAX_RUNNER_UP) return null;
  return best[0];
}
