import { expect, test, type Page } from '@playwright/test';
import { startScriptedApp, type ScriptedApp } from './scriptedApp';
import type { ServeProcess } from './serveProcess';
import { withoutCorpus } from '../helpers/shared';

/*
 * The page viewer and the chat column, in the browser app against the real core (`quire serve`). The
 * model is a scripted stand-in (OpenAI-compatible, streaming): its first decision names a tool that
 * does not exist, so the steps show a failed decision; its answer carries a long URL and a hash.
 */
const decisions = [
  { tool: 'no_such_tool', inputs: {} },
  { tool: 'text_search', inputs: { query: 'trace-based just-in-time compilation', k: '5', mode: 'bm25' } },
  { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];
const url = `https://example.org/${'a'.repeat(240)}`;
const hash = 'f'.repeat(180);
const answer = `TraceMonkey compiles hot loops with trace-based just-in-time compilation [1]. See ${url} and ${hash}.`;

let serve: ServeProcess;
let folder: string;
let app: ScriptedApp | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.skip(withoutCorpus('the page viewer end-to-end test on corpus PDFs'));
  app = await startScriptedApp({
    name: 'viewer',
    decisions,
    answer,
    files: {
      'tracemonkey.pdf': 'pdfjs/tracemonkey.pdf',
    },
    behaviour: { delayBetweenPiecesMs: 5 },
  });
  ({ serve, folder } = app);
});

test.afterAll(async () => {
  await app?.dispose();
});

let asked = false;

/** Adds the folder and asks once; later tests open the same conversation, which the app shows again. */
async function openAnsweredChat(page: Page): Promise<void> {
  await page.goto(serve.url);
  if (!asked) {
    await page.getByTestId('folder-path-input').fill(folder);
    await page.getByTestId('add-folder-button').click();
  }
  await expect(page.locator('[data-testid="document-item"][data-state="indexed"]')).toHaveCount(1, {
    timeout: 120_000,
  });
  if (!asked) {
    await expect(page.getByTestId('role-row').filter({ hasText: 'scripted-chat' }).first()).toBeAttached({
      timeout: 30_000,
    });
    await page.getByTestId('question-input').fill('How does TraceMonkey compile hot loops?');
    await page.getByTestId('ask-button').click();
    asked = true;
  } else {
    const select = page.getByTestId('conversation-select');
    await expect(select.locator('option', { hasText: 'TraceMonkey' })).toBeAttached({ timeout: 30_000 });
    const value = await select.locator('option', { hasText: 'TraceMonkey' }).first().getAttribute('value');
    await select.selectOption(value!);
  }
  await expect(page.getByTestId('answer').last()).toContainText(hash.slice(0, 40), { timeout: 60_000 });
  await expect(page.getByTestId('citation-marker').first()).toBeVisible({ timeout: 30_000 });
}

test('the chat column holds a long URL and a hash, and a failed decision reads as one clean sentence', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openAnsweredChat(page);
  const turns = page.locator('.chat__turns');
  const overflow = await turns.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const answerBox = await page.getByTestId('answer').last().boundingBox();
  const columnBox = await turns.boundingBox();
  expect(answerBox!.x + answerBox!.width).toBeLessThanOrEqual(columnBox!.x + columnBox!.width);

  const turn = page.getByTestId('turn').last();
  await turn.getByTestId('trace-toggle').click();
  const failed = turn.locator('[data-testid="trace-step"][data-kind="error"]').first();
  await expect(failed).toContainText('no_such_tool');
  const sentences = await turn.getByTestId('trace-step').allInnerTexts();
  for (const sentence of sentences) {
    const firstLine = sentence.split('\n')[0]!;
    expect(firstLine).not.toMatch(/[.)]\s*[.,]\s*\d/);
    expect(firstLine).not.toMatch(/\.\s*,/);
  }
});

test('the page viewer zooms, pans, pages through thumbnails, selects text and marks the cited sentence', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openAnsweredChat(page);
  // The marker in the answer cites its sentence: the viewer marks that sentence, not the whole passage.
  await page.getByTestId('citation-marker').first().click();
  const viewer = page.getByTestId('page-viewer');
  await expect(viewer).toBeVisible();
  await expect(viewer.getByTestId('page-image')).toBeVisible({ timeout: 30_000 });
  // The image comes from the server's page-image route (the page's cookie carries the token) and is drawn.
  await expect(viewer.getByTestId('page-image')).toHaveAttribute(
    'src',
    /^\/page-images\/[\w-]+\/\d+\/full\?v=[0-9a-f]+$/,
  );
  await expect
    .poll(() =>
      viewer.getByTestId('page-image').evaluate((img) => {
        const { complete, naturalWidth } = img as unknown as { complete: boolean; naturalWidth: number };
        return complete ? naturalWidth : 0;
      }),
    )
    .toBeGreaterThan(0);
  await expect(viewer.getByTestId('text-layer')).toBeAttached({ timeout: 30_000 });
  const highlights = viewer.getByTestId('page-highlight');
  await expect(highlights.first()).toBeVisible();
  // PDF text items hold several words each: the viewer says the word positions are estimated.
  await expect(viewer.getByTestId('highlight-note')).toContainText('Approximate highlight');

  // The highlighted runs cover fewer lines' worth of area than the passage would: word runs, one per line.
  const runs = await highlights.count();
  expect(runs).toBeGreaterThan(0);
  expect(runs).toBeLessThan(8);

  // Zoom: buttons, keys and a pinch (Ctrl + wheel, as trackpads send it).
  const frame = viewer.getByTestId('page-frame');
  const zoomLevel = viewer.getByTestId('zoom-level');
  const width = async () => (await frame.boundingBox())!.width;
  const fitted = await width();
  await expect(zoomLevel).toHaveText('100%');
  await viewer.getByTestId('zoom-in').click();
  await expect(zoomLevel).toHaveText('125%');
  expect(await width()).toBeGreaterThan(fitted * 1.2);
  await page.keyboard.press('Control+0');
  await expect(zoomLevel).toHaveText('100%');
  await page.keyboard.press('Control+Equal');
  await expect(zoomLevel).toHaveText('125%');
  await page.keyboard.press('Control+Minus');
  await expect(zoomLevel).toHaveText('100%');
  await viewer.getByTestId('zoom-out').click();
  await expect(zoomLevel).toHaveText('80%');
  await viewer.getByTestId('zoom-fit').click();
  await expect(zoomLevel).toHaveText('100%');
  const stage = viewer.getByTestId('page-stage');
  const stageBox = (await stage.boundingBox())!;
  await page.mouse.move(stageBox.x + stageBox.width / 2, stageBox.y + stageBox.height / 2);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -60);
  await page.keyboard.up('Control');
  await expect(zoomLevel).not.toHaveText('100%');
  expect(Number((await zoomLevel.innerText()).replace('%', ''))).toBeGreaterThan(100);

  // Pan: at 200% dragging the stage's margin moves the page.
  await viewer.getByTestId('zoom-fit').click();
  for (const expected of ['125%', '150%', '200%']) {
    await viewer.getByTestId('zoom-in').click();
    await expect(zoomLevel).toHaveText(expected);
  }
  await stage.evaluate((element) => element.scrollTo(0, 0));
  const before = await stage.evaluate((element) => element.scrollLeft);
  await page.mouse.move(stageBox.x + 8, stageBox.y + 8);
  await page.mouse.down();
  await page.mouse.move(stageBox.x - 150, stageBox.y + 8, { steps: 5 });
  await page.mouse.up();
  expect(await stage.evaluate((element) => element.scrollLeft)).toBeGreaterThan(before + 100);
  await viewer.getByTestId('zoom-fit').click();

  // The text layer: dragging across words selects them, as text.
  const words = viewer.locator('[data-word]');
  const first = (await words.nth(0).boundingBox())!;
  const tenth = (await words.nth(9).boundingBox())!;
  await page.mouse.move(first.x + 1, first.y + first.height / 2);
  await page.mouse.down();
  await page.mouse.move(tenth.x + tenth.width - 1, tenth.y + tenth.height / 2, { steps: 5 });
  await page.mouse.up();
  const selected = await page.evaluate(() =>
    String((globalThis as unknown as { getSelection: () => unknown }).getSelection()),
  );
  expect(selected.split(/\s+/).filter(Boolean).length).toBeGreaterThanOrEqual(3);
  const firstWord = (await words.nth(0).innerText()).trim();
  expect(selected).toContain(firstWord);

  // Thumbnails and next/previous, away from the cited page.
  const cited = Number(/Page (\d+)/.exec(await viewer.getByTestId('page-number').innerText())![1]);
  const other = cited === 7 ? 9 : 7;
  const thumbnails = viewer.getByTestId('thumbnail');
  await expect(thumbnails).toHaveCount(14);
  await thumbnails.nth(other - 1).click();
  await expect(viewer.getByTestId('page-number')).toHaveText(`Page ${other} of 14`);
  await expect(thumbnails.nth(other - 1)).toHaveAttribute('aria-current', 'page');
  await viewer.getByTestId('page-next').click();
  await expect(viewer.getByTestId('page-number')).toHaveText(`Page ${other + 1} of 14`);
  await viewer.getByTestId('page-previous').click();
  await expect(viewer.getByTestId('page-number')).toHaveText(`Page ${other} of 14`);
  await expect(viewer.getByTestId('page-image')).toBeVisible({ timeout: 30_000 });
  // Another page than the cited one: nothing is marked.
  await expect(highlights).toHaveCount(0);
  await expect(viewer.getByTestId('highlight-note')).toHaveCount(0);

  // The browser cannot hand a file to the system's viewer, so it does not offer to.
  await expect(viewer.getByTestId('open-external')).toHaveCount(0);

  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
});
