import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { parseDocument } from '../../src/core/documents/parseDocument';
import { readPdfOutline, type OutlineEntry } from '../../src/core/documents/pdf/pdfOutline';
import { QuireError } from '../../src/shared/errors';
import { corpusDir, withoutCorpus } from '../helpers/shared';
import type { FakePage } from './fakePorts';
import { runScripted } from './harness';

const noCorpus = withoutCorpus('reference following on a corpus PDF outline');

/** Springer's llncs guide: its outline names "3 How to Code the Header of Your Paper" on page 2. */
const GUIDE = join(corpusDir, 'docling', 'latex__2305.03393__llncsdoc.pdf');

describe.skipIf(noCorpus)('reference following through the PDF outline', () => {
  let pages: FakePage[];
  let outline: OutlineEntry[];

  beforeAll(async () => {
    const parsed = await parseDocument(GUIDE, { kind: 'pdf' });
    pages = parsed.pages.map((page) => ({
      documentId: 'llncs',
      path: GUIDE,
      page: page.page,
      paragraphs: parsed.chunks.filter((chunk) => chunk.page === page.page).map((chunk) => chunk.text),
    }));
    outline = await readPdfOutline(GUIDE);
  });

  const ask = (documentOutline: (id: string) => Promise<OutlineEntry[]>) =>
    runScripted({
      question: 'Which special commands typeset the contribution header?',
      decide: [
        {
          tool: 'text_search',
          inputs: { query: 'special commands typesetting contribution header', k: '3', mode: 'hybrid' },
        },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'The header is coded with \\title, \\author and \\institute [2].' }],
      ports: {
        pages,
        documentOutline: async (documentId) => {
          expect(documentId).toBe('llncs');
          return documentOutline(documentId);
        },
      },
    });

  it('resolves "Sect. 3" on page 1 to the page its bookmark opens', async () => {
    const run = await ask(async () => outline);
    const [hop] = run.of('reference');
    expect(hop).toMatchObject({ reference: 'Sect. 3', depth: 1 });
    expect(hop!.from.page).toBe(1);
    expect(hop!.to).toMatchObject({ documentId: 'llncs', page: 2 });
    expect(hop!.note).toBe('found in the PDF outline ("3 How to Code the Header of Your Paper")');
    // The outline named the page: no search for the heading was needed.
    expect(run.ports.calls.searchChunks).not.toContain('Section 3');
  });

  it('falls back to searching for the heading when the outline cannot be read', async () => {
    const run = await ask(async () => {
      throw new QuireError('needs_password', 'This PDF is encrypted: enter its password to read it.');
    });
    const [hop] = run.of('reference');
    expect(hop!.to).toMatchObject({ page: 2 });
    expect(hop!.note).toBeNull();
    expect(run.ports.calls.searchChunks).toContain('Section 3');
  });
});
