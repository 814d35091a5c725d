/*
 * The search forms of one question: the question itself, its keywords, its sub-questions when it is
 * compound, and (with a chat model) a rewritten query. Each is searched and the lists are fused by
 * reciprocal rank, so no single wording decides what is found.
 */
import type { ChatModel } from '../models/types';
import { isStopword } from '../index/stopwords';
import { queryWords } from '../index/searchText';

export type QueryFormKind = 'question' | 'keywords' | 'subquestion' | 'rewritten';

export interface QueryForm {
  kind: QueryFormKind;
  text: string;
}

const MAX_KEYWORDS = 12;
const MAX_SUBQUESTIONS = 3;
const FORM_CHARS = 200;
/** A sub-question needs this many content words to be worth a search of its own. */
const MIN_SUBQUESTION_WORDS = 2;

const QUESTION_START =
  /^(?:what|which|who|whom|whose|how|when|where|why|is|are|does|do|did|was|were|has|have|can|could|should|will)\b/i;

/** Content words in order of first use: no stopwords, no repeats. */
export function keywordsOf(text: string): string[] {
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const word of queryWords(text)) {
    const lower = word.toLowerCase();
    if (isStopword(lower) || seen.has(lower)) continue;
    seen.add(lower);
    keywords.push(word);
  }
  return keywords;
}

/**
 * Parts of a compound question that stand alone: its sentences, and clauses joined by "and" / "as well
 * as" that each carry a question word ("What was X and how did Y change?").
 */
export function subQuestionsOf(question: string): string[] {
  const sentences = question
    .split(/(?<=[?.;!])\s+(?=\S)/)
    .map((part) => part.trim())
    .filter(Boolean);
  const parts = sentences.flatMap((sentence) =>
    sentence
      .split(
        /\s*(?:,\s*)?\b(?:and|as well as)\s+(?=(?:what|which|who|how|when|where|why|is|are|does|did|was|were)\b)/i,
      )
      .map((part) => part.trim()),
  );
  // Instructions about the answer's form ("Quote the document.", "Round to two decimals.") are not asked.
  const usable = parts.filter(
    (part) =>
      keywordsOf(part).length >= MIN_SUBQUESTION_WORDS && (part.endsWith('?') || QUESTION_START.test(part)),
  );
  return usable.length > 1 ? usable.slice(0, MAX_SUBQUESTIONS) : [];
}

/** The forms that need no model: the question, its keywords and its sub-questions. */
export function heuristicForms(question: string): QueryForm[] {
  const forms: QueryForm[] = [{ kind: 'question', text: question.slice(0, FORM_CHARS * 4) }];
  const keywords = keywordsOf(question).slice(0, MAX_KEYWORDS).join(' ');
  if (keywords) forms.push({ kind: 'keywords', text: keywords });
  for (const part of subQuestionsOf(question)) forms.push({ kind: 'subquestion', text: part });
  return dedupe(forms);
}

const REWRITE_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', maxLength: FORM_CHARS },
    subQuestions: {
      type: 'array',
      items: { type: 'string', maxLength: FORM_CHARS },
      maxItems: MAX_SUBQUESTIONS,
    },
  },
  required: ['query', 'subQuestions'],
  additionalProperties: false,
} as const;

/**
 * A chat model's search query for the question and its sub-questions (for compound questions only).
 * Throws when the model fails or replies with something unusable; callers keep the heuristic forms.
 */
export async function rewrittenForms(
  model: ChatModel,
  question: string,
  signal?: AbortSignal,
): Promise<QueryForm[]> {
  const response = await model.chat({
    messages: [
      {
        role: 'system',
        content:
          'Rewrite the question as a short search query of the words a matching passage would contain: names, ' +
          'terms, years, no question words. If the question asks several things, also list each as its own ' +
          'short sub-question; otherwise give an empty list. Reply with JSON only.',
      },
      { role: 'user', content: question },
    ],
    jsonSchema: REWRITE_SCHEMA,
    maxTokens: 200,
    temperature: 0,
    ...(signal ? { signal } : {}),
  });
  const parsed = JSON.parse(response.text) as { query?: unknown; subQuestions?: unknown };
  const forms: QueryForm[] = [];
  if (typeof parsed.query === 'string' && keywordsOf(parsed.query).length > 0)
    forms.push({ kind: 'rewritten', text: parsed.query.trim() });
  if (Array.isArray(parsed.subQuestions)) {
    for (const part of parsed.subQuestions.slice(0, MAX_SUBQUESTIONS)) {
      if (typeof part === 'string' && keywordsOf(part).length > 0)
        forms.push({ kind: 'subquestion', text: part.trim() });
    }
  }
  if (forms.length === 0) throw new Error('the rewrite had no usable query');
  return forms;
}

/** Forms whose keywords are the same search as an earlier form's are dropped. */
export function dedupe(forms: QueryForm[]): QueryForm[] {
  const seen = new Set<string>();
  return forms.filter((form) => {
    const key = keywordsOf(form.text)
      .map((w) => w.toLowerCase())
      .sort()
      .join(' ');
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
