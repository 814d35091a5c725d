import { describe, expect, it } from 'vitest';
import { analyzeQuestion } from '../../src/core/agent/constraints';
import { DEFAULT_LIMITS } from '../../src/core/agent/limits';
import type { AgentPorts } from '../../src/core/agent/ports';
import { createState } from '../../src/core/agent/state';
import { findDocuments } from '../../src/core/agent/tools/findDocuments';
import type { ToolYield } from '../../src/core/agent/tools/types';
import type { DocumentMatch } from '../../src/shared/domain/scope';
import { fakePorts } from './fakePorts';
import { scriptedRoles } from './scriptedModel';

const match = (path: string, forms: string[]): DocumentMatch => ({
  documentId: path,
  path,
  matches: 1,
  page: 2,
  snippet: `… ${forms[0]} …`,
  forms,
});

/** The tool over a library where the word itself is in `words` and other forms of its stem in `related`. */
async function findIn(term: string, words: DocumentMatch[], related: DocumentMatch[]) {
  const asked: boolean[] = [];
  const searchDocuments: AgentPorts['searchDocuments'] = async (_query, options) => {
    asked.push(options.related ?? false);
    return options.related ? related : words;
  };
  const ports = { ...fakePorts({ models: scriptedRoles({}) }), searchDocuments };
  const state = createState({
    question: `Which documents mention ${term}?`,
    history: [],
    requirements: analyzeQuestion(`Which documents mention ${term}?`),
    capabilities: { see: false, libraryRoots: [], web: false },
  });
  const out: ToolYield[] = [];
  for await (const item of findDocuments.run(
    { term },
    {
      state,
      ports,
      limits: DEFAULT_LIMITS,
      signal: new AbortController().signal,
      emitToken: () => {},
      emit: () => {},
    },
  ))
    out.push(item);
  return { out, asked };
}

describe('find_documents counts the word, not other words of its stem', () => {
  it('lists the documents that hold the word, naming the forms when they differ', async () => {
    const { out, asked } = await findIn(
      'transformer',
      [match('/l/a.pdf', ['transformer']), match('/l/b.pdf', ['transformers', 'transformer'])],
      [],
    );
    expect(asked).toEqual([false]);
    expect(out).toMatchObject([{ type: 'result', items: 2 }]);
    const text = out[0]!.type === 'result' ? out[0]!.text : '';
    expect(text).toMatch(/a\.pdf: 1 passage\(s\), best p\.2/);
    expect(text).toContain('b.pdf: 1 passage(s) (as transformers, transformer)');
  });

  it('says plainly when no document holds the word and which related forms others hold', async () => {
    const { out, asked } = await findIn(
      'transformer',
      [],
      [match('/l/c.pdf', ['transformation']), match('/l/d.pdf', ['transformed', 'transformation'])],
    );
    expect(asked).toEqual([false, true]);
    expect(out).toMatchObject([{ type: 'error' }]);
    const message = out[0]!.type === 'error' ? out[0]!.message : '';
    expect(message).toBe(
      'No document mentions "transformer". 2 document(s) hold related words: "transformation", "transformed".',
    );
  });
});
