import { expect, test } from '@playwright/test';
import type { OpenAIStandIn } from '../standins/openaiStandIn';
import { startScriptedApp, type ScriptedApp } from './scriptedApp';
import type { ServeProcess } from './serveProcess';
import { withoutCorpus } from '../helpers/shared';

/**
 * The model is a stand-in OpenAI-compatible server (SSE streaming, JSON-schema requests) that plays a
 * fixed script: search, open the first hit, answer citing it. Everything else is the real app.
 */
const decisions = [
  { tool: 'text_search', inputs: { query: 'trace-based just-in-time compilation', k: '5', mode: 'bm25' } },
  { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];
const answer = 'TraceMonkey compiles hot loops with trace-based just-in-time compilation [1].';

let serve: ServeProcess;
let standIn: OpenAIStandIn;
let folder: string;
let app: ScriptedApp | undefined;

test.beforeAll(async () => {
  test.skip(withoutCorpus('the chat end-to-end test on corpus PDFs'));
  app = await startScriptedApp({
    name: 'chat',
    decisions,
    answer,
    files: {
      'tracemonkey.pdf': 'pdfjs/tracemonkey.pdf',
      'rotation.pdf': 'pdfjs/rotation.pdf',
      'issue7229.pdf': 'pdfjs/issue7229.pdf',
    },
    behaviour: { delayBetweenPiecesMs: 20 },
  });
  ({ serve, standIn, folder } = app);
});

test.afterAll(async () => {
  await app?.dispose();
});

test('a question asked in the UI streams its steps and answer, and its citation opens the page', async ({
  page,
}) => {
  await page.goto(serve.url);
  await page.getByTestId('folder-path-input').fill(folder);
  await page.getByTestId('add-folder-button').click();
  const indexed = page.locator('[data-testid="document-item"][data-state="indexed"]');
  await expect(indexed).toHaveCount(3, { timeout: 120_000 });
  await expect(page.getByTestId('role-row').filter({ hasText: 'scripted-chat' }).first()).toBeVisible({
    timeout: 30_000,
  });

  await page.getByTestId('question-input').fill('How does TraceMonkey compile hot loops?');
  await page.getByTestId('ask-button').click();
  await expect(page.getByTestId('answer').last()).toContainText('trace-based just-in-time compilation', {
    timeout: 60_000,
  });
  // The answer passed the check and cites a page: the UI says it is verified.
  await expect(page.getByTestId('answer-status').last()).toHaveText('Verified', { timeout: 30_000 });
  // The steps stay closed once the answer is in; each opens as one sentence with its details apart.
  const turn = page.getByTestId('turn').last();
  const toggle = turn.getByTestId('trace-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(turn.getByTestId('trace-step')).toHaveCount(0);
  await toggle.click();
  const search = turn.locator('[data-testid="trace-step"][data-tool="text_search"]').first();
  await expect(search).toContainText(
    'Searched the text by keywords for “trace-based just-in-time compilation”',
  );
  await expect(turn.locator('[data-testid="trace-step"][data-tool="open_citation"]').first()).toContainText(
    'Read source [1]',
  );
  await search.locator('summary').click();
  await expect(search.getByTestId('trace-step-detail')).toContainText('keywords only');
  await expect(turn.getByTestId('trace')).not.toContainText('{"');
  await expect(turn.getByTestId('trace')).not.toContainText('text_search');

  const chip = page.getByTestId('citation-chip').first();
  await expect(chip).toContainText('tracemonkey.pdf');
  await chip.click();
  await expect(page.getByTestId('page-viewer')).toBeVisible();
  await expect(page.getByTestId('page-image')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('page-highlight').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/e2e/chat-citation.png' });

  const decisionRequests = standIn.requests.filter((r) => r.path === '/v1/chat/completions');
  expect(decisionRequests.length).toBeGreaterThanOrEqual(4);
});

test('the models panel pins a role to a served model and keeps added servers', async ({ page }) => {
  await page.goto(serve.url);
  const answerRole = page.locator('[data-testid="role-row"][data-role="answer"]');
  await answerRole.getByTestId('role-choice').selectOption({ label: `scripted-chat — ${standIn.baseUrl}` });
  await expect(answerRole).toContainText('Chosen in settings');

  await page.getByTestId('server-address-input').fill('http://127.0.0.1:9');
  await page.getByRole('button', { name: 'Add server' }).click();
  await expect(page.getByTestId('added-server')).toContainText('http://127.0.0.1:9');
  await expect(page.getByTestId('server-item').filter({ hasText: '127.0.0.1:9' }).first()).toContainText(
    'Unreachable',
  );
  await page.reload();
  await expect(page.getByTestId('added-server')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/e2e/models-settings.png' });
});
