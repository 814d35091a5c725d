import { basename } from 'node:path';
import { z } from 'zod';
import { contentWords } from '../text';
import { objectSchema, textField } from './schema';
import type { Tool } from './types';

/** The words after "mention", "contain", "about"... in the question; else its content words. */
function termOf(question: string): string {
  const after =
    /\b(?:mentions?|contains?|about|refers? to|says?|discuss(?:es)?)\s+(?:the\s+|a\s+|an\s+)?(.+?)[?.!]*$/i.exec(
      question,
    );
  const term = after?.[1]?.trim() || contentWords(question).slice(-3).join(' ') || question;
  return term.slice(0, 200);
}

/** Documents given a numbered source each; past this the rest are counted and named, not numbered. */
const MAX_SOURCES = 60;

/**
 * Every document that mentions a term, not the top k passages: for "which files mention X" and "how
 * many documents mention X". A mention is the word itself (case and plural folded), not other words of
 * its stem. Each document becomes a numbered source at its best page, so the answer can cite every
 * document it names.
 */
export const findDocuments: Tool<{ term: string }> = {
  name: 'find_documents',
  description:
    'List EVERY document that mentions a word or phrase (not only the best passages), with how many passages match and its best page [n]. ' +
    'Use for "which documents/files mention ...", "how many documents ...", "list the files about ...". Cite each document you name.',
  inputSchema: z.object({ term: z.string().trim().min(1).max(200) }),
  modelInputSchema: objectSchema({ term: textField(200, 'the word or phrase the documents must contain') }),
  ends: false,
  isAvailable: () => true,
  defaultInputs: (state) => ({ term: termOf(state.question) }),
  async *run(inputs, { state, ports, signal }) {
    if (!ports.searchDocuments) {
      yield {
        type: 'error',
        message: 'Listing every matching document is not available here.',
        suggestion: 'Use text_search, and say that the list may be incomplete.',
      };
      return;
    }
    state.searches++;
    const found = await ports.searchDocuments(inputs.term, {}, signal);
    if (found.length === 0) {
      // Only the word counts as a mention; other forms of it are named so the answer can say so.
      const related = await ports.searchDocuments(inputs.term, { related: true }, signal);
      const forms = [...new Set(related.flatMap((match) => match.forms))].slice(0, 8);
      yield {
        type: 'error',
        message:
          `No document mentions "${inputs.term}".` +
          (related.length > 0
            ? ` ${related.length} document(s) hold related words: ${forms.map((f) => `"${f}"`).join(', ')}.`
            : ''),
        suggestion: 'Try another wording, or text_search to match by meaning.',
      };
      return;
    }
    const typed = inputs.term.toLowerCase();
    const lines = found.slice(0, MAX_SOURCES).map((match) => {
      const source = state.sources.addHit({
        documentId: match.documentId,
        path: match.path,
        page: match.page,
        chunkId: null,
        score: match.matches,
        snippet: match.snippet,
        boxes: [],
        mode: 'bm25',
      });
      const other = match.forms.some((form) => form !== typed) ? ` (as ${match.forms.join(', ')})` : '';
      return `[${source.n}] ${basename(match.path)}: ${match.matches} passage(s)${other}, best p.${match.page}: ${match.snippet.replace(/\s+/g, ' ').slice(0, 200)}`;
    });
    const rest = found.slice(MAX_SOURCES);
    if (rest.length > 0)
      lines.push(`... and ${rest.length} more: ${rest.map((m) => basename(m.path)).join(', ')}`);
    yield {
      type: 'result',
      name: inputs.term,
      text: `${found.length} document(s) mention "${inputs.term}":\n${lines.join('\n')}`,
      items: found.length,
      summary: `${found.length} document(s) mention "${inputs.term}"`,
    };
  },
};
