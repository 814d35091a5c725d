import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluatePages, pageFiguresCaveat } from '../../scripts/eval-pages';
import { tempDir, withoutCorpus } from '../helpers/shared';
import { writeTinyPageEmbedder } from '../helpers/tinyPageEmbedder';

const noCorpus = withoutCorpus('the page eval on a corpus PDF');

let dir: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  dir = await tempDir('quire-eval-pages-');
});

afterAll(async () => {
  await dir.cleanup();
});

describe.skipIf(noCorpus)('the page half of the retrieval eval', () => {
  it('draws, embeds and ranks every page with the configured embedder, and says random weights prove only that it runs', async () => {
    const embedderPath = join(dir.path, 'tiny-page.onnx');
    await writeTinyPageEmbedder(embedderPath);
    const doc = 'corpus/pdfjs/tracemonkey.pdf';
    const result = await evaluatePages(
      [
        {
          question: 'trace trees for hot loops',
          doc,
          gold_pages: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
        },
        { question: 'a page that is not there', doc, gold_pages: [999] },
      ],
      [doc],
      { embedderPath, workDir: dir.path, scored: 10 },
    );
    expect(result.pages).toBe(14);
    expect(result.failed).toEqual([]);
    // Every page is gold for the first question: the top-ranked page is one of them.
    expect(result.ranks).toEqual([1, null]);
    expect(result.randomWeights).toBe(true);
    expect(pageFiguresCaveat(result)).toContain('Real figures need real weights');
  }, 240_000);
});
