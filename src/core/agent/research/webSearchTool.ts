/*
 * The web_search tool: available only while the user has web search on. Each use is a `network` step in
 * the trace; PDF results become proposals the user may approve, never downloads.
 */
import { z } from 'zod';
import { objectSchema, textField } from '../tools/schema';
import type { Tool } from '../tools/types';

interface Inputs {
  query: string;
}

export const webSearch: Tool<Inputs> = {
  name: 'web_search',
  description:
    'Search the web (the SearXNG instance the user set up) when the documents do not answer. Returns titles, links and snippets; PDFs can be proposed for the library.',
  inputSchema: z.object({ query: z.string().trim().min(1).max(200) }),
  modelInputSchema: objectSchema({ query: textField(200, 'what to search the web for') }),
  ends: false,
  isAvailable: (state) => state.capabilities.web && !state.requirements.aboutFiles,
  defaultInputs: (state) => ({ query: state.question.slice(0, 200) }),
  async *run(inputs, { ports, signal, emit }) {
    const provider = ports.webSearch?.() ?? null;
    if (!provider) {
      yield { type: 'error', message: 'Web search is off.', suggestion: 'Answer from the documents.' };
      return;
    }
    emit({ type: 'network', host: provider.host, purpose: `web search for "${inputs.query}"` });
    const results = await provider.search(inputs.query, { signal });
    if (results.length === 0) {
      yield { type: 'error', message: `The web had nothing for "${inputs.query}".`, suggestion: null };
      return;
    }
    for (const result of results.filter((r) => r.isPdf))
      emit({ type: 'proposal', url: result.url, title: result.title });
    yield {
      type: 'result',
      name: inputs.query,
      text: results
        .map((r, i) => `(web ${i + 1}) ${r.title} <${r.url}>${r.isPdf ? ' [PDF]' : ''}\n${r.snippet}`)
        .join('\n'),
      items: results.length,
      summary: `${results.length} web result(s) for "${inputs.query}" from ${provider.host}`,
    };
  },
};
