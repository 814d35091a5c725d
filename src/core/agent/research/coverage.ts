/*
 * How well a draft covers the question: its years, the names it mentions, phrases in quotes and, for a
 * compound question, each sub-question. Parts the draft leaves out become targeted searches.
 */
import { keywordsOf, subQuestionsOf } from '../../retrieval/queryForms';

export interface QuestionPart {
  kind: 'year' | 'entity' | 'quote' | 'subquestion';
  text: string;
}

const YEAR = /\b(?:FY\s?)?((?:19|20)\d{2})\b/g;
const QUOTED = /["\u201c]([^"\u201d]{2,60})["\u201d]/g;
/** Names: capitalised words past the first word of a sentence, acronyms, and names with digits (3M). */
const NAME = /(?<![.?!]\s|^)\b(?:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*|[A-Z]{2,}[a-z]?|\d+[A-Z]+\b)/g;
const NOT_NAMES = new Set([
  'I',
  'FY',
  'USD',
  'Q1',
  'Q2',
  'Q3',
  'Q4',
  'Please',
  'Answer',
  'Round',
  'What',
  'Which',
  'How',
]);

export function questionParts(question: string): QuestionPart[] {
  const parts: QuestionPart[] = [];
  const add = (kind: QuestionPart['kind'], text: string) => {
    if (!parts.some((p) => p.kind === kind && p.text.toLowerCase() === text.toLowerCase()))
      parts.push({ kind, text });
  };
  for (const match of question.matchAll(YEAR)) add('year', match[1]!);
  for (const match of question.matchAll(QUOTED)) add('quote', match[1]!.trim());
  for (const match of question.matchAll(NAME)) if (!NOT_NAMES.has(match[0])) add('entity', match[0]);
  for (const part of subQuestionsOf(question)) add('subquestion', part);
  return parts;
}

const stem = (word: string) => word.toLowerCase().slice(0, Math.max(4, Math.min(6, word.length - 2)));

export function covers(draft: string, part: QuestionPart): boolean {
  const lower = draft.toLowerCase();
  switch (part.kind) {
    case 'year':
      return lower.includes(part.text) || new RegExp(`\\bfy\\s?${part.text.slice(2)}\\b`).test(lower);
    case 'quote':
    case 'entity':
      return lower.includes(part.text.toLowerCase());
    case 'subquestion': {
      const wanted = keywordsOf(part.text).map(stem);
      const present = new Set(keywordsOf(draft).map(stem));
      return wanted.filter((w) => present.has(w)).length >= Math.ceil(wanted.length / 2);
    }
  }
}

export interface CoverageReport {
  covered: string[];
  missing: QuestionPart[];
  /** Covered parts over all parts; 1 when the question has none to check. */
  score: number;
}

/**
 * A part counts as covered when the draft or a source it cites states it: an answer need not repeat
 * the company's name when its citation is about that company.
 */
export function checkCoverage(question: string, draft: string, citedTexts: string[] = []): CoverageReport {
  const parts = questionParts(question);
  const evidence = [draft, ...citedTexts].join('\n');
  const missing = parts.filter((part) => !covers(evidence, part));
  return {
    covered: parts.filter((part) => !missing.includes(part)).map((part) => part.text),
    missing,
    score: parts.length === 0 ? 1 : (parts.length - missing.length) / parts.length,
  };
}

/** A search aimed at one missing part: the part with the question's main keywords around it. */
export function targetedQuery(question: string, part: QuestionPart): string {
  if (part.kind === 'subquestion') return keywordsOf(part.text).join(' ');
  const context = keywordsOf(question)
    .filter((word) => word.toLowerCase() !== part.text.toLowerCase())
    .slice(0, 5);
  return [part.text, ...context].join(' ').slice(0, 200);
}
