import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { startScriptedApp, type ScriptedApp } from './scriptedApp';
import type { ServeProcess } from './serveProcess';
import { withoutCorpus } from '../helpers/shared';

/**
 * Asking within the library in the real app: "Ask about this" scopes the next question to one
 * document, the composer shows the scope, the answer says what it searched and cites only that
 * document; collections are made and filled from the sidebar; the answer and the conversation go out
 * as Markdown. The model is the scripted OpenAI-compatible stand-in (SSE streaming).
 */
const decisions = [
  { tool: 'text_search', inputs: { query: 'page', k: '5', mode: 'bm25' } },
  { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];
const answer = 'The scoped document is cited here [1].';

let serve: ServeProcess;
let folder: string;
let app: ScriptedApp | undefined;

test.beforeAll(async () => {
  test.skip(withoutCorpus('the scope end-to-end test on corpus PDFs'));
  app = await startScriptedApp({
    name: 'scope',
    decisions,
    answer,
    files: {
      'papers/tracemonkey.pdf': 'pdfjs/tracemonkey.pdf',
      'rotation.pdf': 'pdfjs/rotation.pdf',
    },
    behaviour: { delayBetweenPiecesMs: 5 },
  });
  ({ serve, folder } = app);
});

test.afterAll(async () => {
  await app?.dispose();
});

test('ask about one document, keep collections, and take the answer away as Markdown', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(serve.url);
  await page.getByTestId('folder-path-input').fill(folder);
  await page.getByTestId('add-folder-button').click();
  const indexed = page.locator('[data-testid="document-item"][data-state="indexed"]');
  await expect(indexed).toHaveCount(2, { timeout: 120_000 });
  await expect(page.getByTestId('role-row').filter({ hasText: 'scripted-chat' }).first()).toBeVisible({
    timeout: 30_000,
  });

  // A collection made in the sidebar, filled from a document's menu.
  await page.getByTestId('collection-name-input').fill('Papers');
  await page.getByRole('button', { name: 'Create' }).click();
  const collection = page.locator('[data-testid="collection-item"][data-name="Papers"]');
  await expect(collection).toBeVisible();
  const rotation = page.getByTestId('document-item').filter({ hasText: 'rotation.pdf' });
  await rotation.getByTestId('add-to-collection').selectOption('Papers');
  await expect(collection).toContainText('rotation.pdf');

  // Ask about this: the chip shows the one document, and only it is searched and cited.
  const chip = page.getByTestId('scope-chip');
  await expect(chip).toContainText('the whole library');
  await page
    .getByTestId('document-item')
    .filter({ hasText: 'tracemonkey.pdf' })
    .getByTestId('ask-about-button')
    .click();
  await expect(chip).toContainText('tracemonkey.pdf');
  await page.getByTestId('question-input').fill('What is on this page?');
  await page.getByTestId('ask-button').click();
  const turn = page.getByTestId('turn').last();
  await expect(turn.getByTestId('answer')).toContainText('The scoped document is cited here', {
    timeout: 60_000,
  });
  await expect(turn.getByTestId('turn-searched')).toContainText('Searched: tracemonkey.pdf');
  const citations = turn.getByTestId('citation-chip');
  await expect(citations.first()).toContainText('tracemonkey.pdf', { timeout: 30_000 });
  await expect(citations.filter({ hasText: 'rotation.pdf' })).toHaveCount(0);

  // The answer, copied as Markdown, names its source, page and passage, and what was searched.
  await turn.getByTestId('copy-answer').click();
  await expect(turn.getByTestId('copy-answer')).toHaveText('Copied');
  const copied = String(await page.evaluate('navigator.clipboard.readText()'));
  expect(copied).toContain('## What is on this page?');
  expect(copied).toContain('*Searched: tracemonkey.pdf.*');
  expect(copied).toMatch(/\[1\] \*\*tracemonkey\.pdf\*\*, page \d+/);
  expect(copied).toMatch(/\n> \S/);

  // The whole conversation as a Markdown file.
  const download = page.waitForEvent('download');
  await page.getByTestId('export-conversation').click();
  const saved = await readFile((await (await download).path())!, 'utf8');
  expect(saved).toMatch(/^# What is on this page\?/);
  expect(saved).toContain('**Sources**');

  // Removing the scope asks the whole library again.
  await chip.getByTestId('scope-remove').click();
  await expect(chip).toContainText('the whole library');
  await page.screenshot({ path: 'test-results/e2e/scope.png' });
});
