/*
 * Which library documents a name in the text means: "the 2022 Form 10-K", "Amcor's annual report",
 * "ADOBE_2022_10K". Names are compared as words, with filing synonyms folded together, exactly, as a
 * part of the file name, or fuzzily (one typo in a long word).
 */
import { basename, extname } from 'node:path';
import type { DocumentInfo } from '../../../shared/domain/library';

export type MatchHow = 'exact' | 'substring' | 'fuzzy';

export interface DocumentMatch {
  document: DocumentInfo;
  how: MatchHow;
  /** Share of the mention's words found in the document's name, 0 to 1. */
  score: number;
  /** Years the mention names that the document's name lacks. */
  yearMismatch: boolean;
}

/** Ways filings and reports are named, folded to one word. */
const SYNONYMS: Array<[RegExp, string]> = [
  [/\bannual report(?: on form 10-?k)?\b/g, '10k'],
  [/\bquarterly report(?: on form 10-?q)?\b/g, '10q'],
  [/\bform\s+(10|8)-?([kq])\b/g, '$1$2'],
  [/\b(10|8)-([kq])\b/g, '$1$2'],
  [/\bproxy statement\b/g, 'def14a'],
  [/\b(?:fiscal(?: year)?|fy)\s*((?:19|20)\d{2})\b/g, '$1'],
];

/**
 * Words that never name a document. Deliberately short: a general stoplist would drop names such as
 * "Best" (Buy) or "First" (Solar).
 */
const NAME_FILLER = new Set(
  'a an and the of for in on to at by its our their this that my your form'.split(' '),
);

export function nameWords(text: string): string[] {
  let lower = text.toLowerCase().replace(/[_]+/g, ' ');
  for (const [pattern, replacement] of SYNONYMS) lower = lower.replace(pattern, replacement);
  // `FY2022` and `2023Q2` carry a year: split it off so years compare as words.
  lower = lower
    .replace(/(\p{L})((?:19|20)\d{2})\b/gu, '$1 $2')
    .replace(/\b((?:19|20)\d{2})(q[1-4])\b/g, '$1 $2')
    .replace(/'s\b/g, '');
  return (lower.match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !NAME_FILLER.has(word));
}

export function documentName(document: Pick<DocumentInfo, 'path'>): string {
  return basename(document.path, extname(document.path));
}

const isYear = (word: string) => /^(?:19|20)\d{2}$/.test(word);

/** Words in file names that say what kind of document it is, not whose. */
export const KIND_WORDS = new Set(
  '10k 10q 8k def14a earnings report annual quarterly q1 q2 q3 q4 pdf final draft v1 v2 copy dated'.split(
    ' ',
  ),
);
/** The words that say whose document it is: its name without years and kind words. */
export function ownerWords(document: DocumentInfo): string[] {
  return nameWords(documentName(document)).filter((word) => !isYear(word) && !KIND_WORDS.has(word));
}

function closeEnough(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < 5 || b.length < 5 || Math.abs(a.length - b.length) > 1) return false;
  // One edit apart.
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
}

/** Documents whose names match the mention, best first; none when nothing but generic words match. */
export function matchDocuments(mention: string, documents: DocumentInfo[]): DocumentMatch[] {
  const wanted = nameWords(mention);
  const names = wanted.filter((word) => !isYear(word));
  const years = wanted.filter(isYear);
  if (names.length === 0) return [];
  const joinedMention = names.join('');
  const matches: DocumentMatch[] = [];
  for (const document of documents) {
    const words = nameWords(documentName(document));
    const joined = words.join('');
    let how: MatchHow | null = null;
    let found = 0;
    for (const word of names) {
      if (words.includes(word) || (word.length >= 3 && joined.includes(word))) found++;
      else if (words.some((candidate) => closeEnough(word, candidate))) {
        found++;
        how = 'fuzzy';
      }
    }
    if (found === 0) continue;
    if (ownerWords(document).join('') === joinedMention) how = 'exact';
    else how ??= 'substring';
    matches.push({
      document,
      how,
      score: found / names.length,
      yearMismatch: years.length > 0 && !years.some((year) => words.includes(year)),
    });
  }
  const rank = { exact: 0, substring: 1, fuzzy: 2 } as const;
  return matches
    .filter((match) => match.score >= 0.5)
    .sort(
      (a, b) =>
        Number(a.yearMismatch) - Number(b.yearMismatch) || b.score - a.score || rank[a.how] - rank[b.how],
    );
}
