import { z } from 'zod';
import type { ChunkSearchMode } from '../ports';
import { interleaveHits, searchOtherLanguages } from '../research/otherLanguages';
import { contentWords } from '../text';
import { formatSource } from './format';
import { choiceField, objectSchema, textField } from './schema';
import type { Tool } from './types';

const K_CHOICES = ['3', '5', '10', '20'] as const;
const MODES = ['hybrid', 'bm25', 'dense'] as const;

interface Inputs {
  query: string;
  k: number;
  mode: ChunkSearchMode;
}

export const textSearch: Tool<Inputs> = {
  name: 'text_search',
  description:
    'Search the text of every indexed document (hybrid keyword + meaning). Returns numbered passages [n] with document and page. ' +
    'Use bm25 for exact names, codes and numbers.',
  inputSchema: z.object({
    query: z.string().trim().min(1).max(200),
    k: z.enum(K_CHOICES).default('5').transform(Number),
    mode: z.enum(MODES).default('hybrid'),
  }),
  modelInputSchema: objectSchema({
    query: textField(200, 'keywords or a short phrase'),
    k: choiceField(K_CHOICES, 'how many passages'),
    mode: choiceField(MODES, 'search mode'),
  }),
  ends: false,
  isAvailable: () => true,
  defaultInputs: (state) => ({
    query: (contentWords(state.question).slice(0, 12).join(' ') || state.question).slice(0, 200),
    k: 5,
    mode: 'hybrid',
  }),
  async *run(inputs, context) {
    const { state, ports, signal } = context;
    // The first search also tries the question's other wordings; every search is re-ranked.
    const rewrite = state.searches === 0;
    state.searches++;
    // A clarified question searches only the documents the user chose.
    const scope = state.research.scope ? { documentIds: state.research.scope.documentIds } : {};
    const options = { k: inputs.k, mode: inputs.mode, ...scope };
    const found = ports.retrieve
      ? await ports.retrieve(inputs.query, { ...options, rewrite, rerank: true }, signal)
      : null;
    const asked = found?.hits ?? (await ports.searchChunks(inputs.query, options, signal));
    // The first search also runs in the other languages the documents in scope are written in.
    const translated = rewrite
      ? await searchOtherLanguages(context, async (query) =>
          ports.retrieve
            ? (await ports.retrieve(query, { ...options, rewrite: false, rerank: true }, signal)).hits
            : ports.searchChunks(query, options, signal),
        )
      : [];
    const hits =
      translated.length > 0 ? interleaveHits([asked, ...translated.map((t) => t.hits)], inputs.k) : asked;
    const how = [
      ...translated.map((t) => `also searched in ${t.language}`),
      found && found.forms.length > 1 ? `${found.forms.length} wordings fused` : '',
      found?.rerankedBy
        ? `re-ranked by the ${found.rerankedBy === 'reranker' ? 'reranker' : 'chat model'}`
        : '',
      ...(found?.notes ?? []),
      // The search says when it ran on keywords alone although meaning was asked for.
      inputs.mode !== 'bm25' && hits[0]?.mode === 'bm25' ? 'BM25 only: no text embeddings yet' : '',
    ].filter(Boolean);
    if (hits.length === 0) {
      yield {
        type: 'error',
        message: `No passage matched "${inputs.query}".`,
        suggestion:
          inputs.mode === 'bm25'
            ? 'Try fewer or different words, or mode "hybrid" to match by meaning.'
            : 'Try fewer or different words, or mode "bm25" for exact terms.',
      };
      return;
    }
    const lines = hits.map((hit) => formatSource(state.sources.addHit(hit), 400));
    yield {
      type: 'result',
      name: inputs.query,
      text: lines.join('\n'),
      items: hits.length,
      summary: `${hits.length} passage(s) for "${inputs.query}"${how.length > 0 ? ` (${how.join('; ')})` : ''}`,
    };
  },
};
