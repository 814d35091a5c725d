import { expect, test } from '@playwright/test';
import { startScriptedApp, type ScriptedApp } from './scriptedApp';
import type { ServeProcess } from './serveProcess';
import { withoutCorpus } from '../helpers/shared';

/**
 * A scanned page, read by the real OCR engine inside the real `quire serve`: the library says how it
 * was read, and a citation of it opens the page with its provenance and a highlight on the words.
 * The model is a stand-in OpenAI-compatible server playing a fixed script (search, open, answer).
 */
const phrase = 'Docling bundles PDF document conversion to JSON and Markdown';
const decisions = [
  { tool: 'text_search', inputs: { query: phrase, k: '5', mode: 'bm25' } },
  { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];
const answer = `${phrase} in an easy self contained package [1].`;

let serve: ServeProcess;
let folder: string;
let app: ScriptedApp | undefined;

test.beforeAll(async () => {
  test.skip(withoutCorpus('the OCR end-to-end test on a corpus scan'));
  app = await startScriptedApp({
    name: 'ocr',
    decisions,
    answer,
    files: {
      'scan.pdf': 'docling/ocr__ocr_test_rotated_90.pdf',
    },
    behaviour: { delayBetweenPiecesMs: 10 },
  });
  ({ serve, folder } = app);
});

test.afterAll(async () => {
  await app?.dispose();
});

test('a scanned page is recognised, says so, and its citation highlights the words', async ({ page }) => {
  // One page drawn at 300 dpi, turned upright and read, on a shared machine.
  test.setTimeout(240_000);
  await page.goto(serve.url);
  await page.getByTestId('folder-path-input').fill(folder);
  await page.getByTestId('add-folder-button').click();
  const item = page.getByTestId('document-item').filter({ hasText: 'scan.pdf' });
  await expect(item.getByTestId('document-ocr')).toContainText(/1 page recognised by OCR, \d+% confidence/, {
    timeout: 180_000,
  });

  await page.getByTestId('question-input').fill('What does Docling bundle?');
  await page.getByTestId('ask-button').click();
  await expect(page.getByTestId('answer').last()).toContainText('self contained package', {
    timeout: 60_000,
  });
  const chip = page.getByTestId('citation-chip').first();
  await expect(chip).toContainText('scan.pdf');
  await chip.click();
  await expect(page.getByTestId('page-viewer')).toBeVisible();
  await expect(page.getByTestId('page-provenance')).toContainText(
    /Text recognised by OCR \(Tesseract\), \d+% confidence/,
  );
  await expect(page.getByTestId('page-image')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('page-highlight').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/e2e/ocr-citation.png' });
});
