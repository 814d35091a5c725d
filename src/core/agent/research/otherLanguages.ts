/*
 * A question asked in one language about documents written in another: keyword search (BM25) finds
 * nothing across languages and meaning search finds less, so the first search also runs on the chat
 * model's translation of the question into each language the scope's documents are written in, and
 * the steps say so. A question whose language is not clear (short, or two languages score close)
 * never triggers it: a wrong guess would spend a model call and show a search nobody asked for.
 */
import type { DocumentInfo } from '../../../shared/domain/library';
import { languageName, UNDETERMINED_LANGUAGE } from '../../../shared/domain/language';
import type { SearchHit } from '../../../shared/domain/search';
import { isAbortError, toErrorInfo } from '../../../shared/errors';
import { detectQuestionLanguage } from '../../language/detectLanguage';
import type { ChatModel } from '../../models/types';
import type { ToolContext } from '../tools/types';

/** At most this many other languages are searched, those of the most documents first. */
const MAX_LANGUAGES = 2;
const QUERY_CHARS = 200;

const TRANSLATION_SCHEMA = {
  type: 'object',
  properties: { translation: { type: 'string', minLength: 1, maxLength: QUERY_CHARS } },
  required: ['translation'],
  additionalProperties: false,
};

/**
 * Languages of the documents in scope that the question is not written in, most documents first.
 * Empty when the question's language is unsure or every document is in it.
 */
export function otherDocumentLanguages(question: string, documents: readonly DocumentInfo[]): string[] {
  const asked = detectQuestionLanguage(question);
  if (!asked) return [];
  const counts = new Map<string, number>();
  for (const document of documents) {
    const language = document.language;
    if (document.state !== 'indexed' || !language || language === UNDETERMINED_LANGUAGE) continue;
    counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  return [...counts]
    .filter(([language]) => language !== asked && languageName(language) !== null)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_LANGUAGES)
    .map(([language]) => language);
}

/** The question in `language` (a name: "German"), as the chat model writes it. */
export async function translateQuestion(
  model: ChatModel,
  question: string,
  language: string,
  signal: AbortSignal,
): Promise<string> {
  const response = await model.chat({
    messages: [
      {
        role: 'system',
        content:
          `Translate the user's question into ${language} so it can be searched in documents written in ${language}. ` +
          'Keep names, numbers, codes and units as they are. Reply with JSON: {"translation": "..."}.',
      },
      { role: 'user', content: question },
    ],
    jsonSchema: TRANSLATION_SCHEMA,
    maxTokens: 200,
    temperature: 0,
    signal,
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.text);
  } catch {
    throw new Error(`the chat model did not answer with JSON (${response.text.slice(0, 80)})`);
  }
  const translation = (parsed as { translation?: unknown }).translation;
  if (typeof translation !== 'string' || translation.trim() === '')
    throw new Error('the chat model gave no translation');
  return translation.trim().slice(0, QUERY_CHARS);
}

/** One translated search: the language's name, the query searched, and what it found. */
export interface TranslatedSearch {
  language: string;
  query: string;
  hits: SearchHit[];
}

/**
 * Runs `search` on the question translated into each other language of the documents in scope, and
 * adds a step for each ("Searched also in German: ..."), or for why it could not.
 */
export async function searchOtherLanguages(
  context: ToolContext,
  search: (query: string) => Promise<SearchHit[]>,
): Promise<TranslatedSearch[]> {
  const { state, ports, signal, emit } = context;
  let documents = await ports.libraryDocuments();
  // A clarified question searches only the documents the user chose; so do its translations.
  const chosen = state.research.scope?.documentIds;
  if (chosen) documents = documents.filter((document) => chosen.includes(document.id));
  const languages = otherDocumentLanguages(state.question, documents);
  if (languages.length === 0) return [];
  const model = await ports.models.chatModel('decide');
  const done: TranslatedSearch[] = [];
  for (const code of languages) {
    const language = languageName(code)!;
    if (!model) {
      emit({
        type: 'status',
        message: `Not searched in ${language}, the language of some documents: no chat model to translate the question.`,
      });
      continue;
    }
    try {
      const query = await translateQuestion(model, state.question, language, signal);
      const hits = await search(query);
      done.push({ language, query, hits });
      emit({
        type: 'status',
        message: `Searched also in ${language}: "${query}" (${hits.length} passage(s)).`,
      });
    } catch (error) {
      if (isAbortError(error) || signal.aborted) throw error;
      emit({
        type: 'status',
        message: `Could not search in ${language}, the language of some documents: ${toErrorInfo(error).message}`,
      });
    }
  }
  return done;
}

/** Hits of several searches taken in turn (the first of each, then the second...), without repeats. */
export function interleaveHits(lists: readonly SearchHit[][], k: number): SearchHit[] {
  const seen = new Set<string>();
  const merged: SearchHit[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let rank = 0; rank < longest && merged.length < k; rank++) {
    for (const list of lists) {
      const hit = list[rank];
      if (!hit) continue;
      const key = hit.chunkId ?? `${hit.documentId}:${hit.page}`;
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(hit);
      if (merged.length >= k) break;
    }
  }
  return merged;
}
