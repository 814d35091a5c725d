import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { startScriptedApp, type ScriptedApp } from './scriptedApp';
import type { ServeProcess } from './serveProcess';
import { withoutCorpus } from '../helpers/shared';

/*
 * The main flow walked with the keyboard alone, then axe-core (the real engine, injected into the page)
 * over every panel in light and dark, at a small and a large window. The model is a scripted stand-in.
 */
const decisions = [
  { tool: 'text_search', inputs: { query: 'trace-based just-in-time compilation', k: '5', mode: 'bm25' } },
  { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];
const answer = 'TraceMonkey compiles hot loops with trace-based just-in-time compilation [1].';
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let serve: ServeProcess;
let folder: string;
let app: ScriptedApp | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.skip(withoutCorpus('the accessibility end-to-end test on corpus PDFs'));
  app = await startScriptedApp({
    name: 'a11y',
    decisions,
    answer,
    files: {
      'tracemonkey.pdf': 'pdfjs/tracemonkey.pdf',
      'rotation.pdf': 'pdfjs/rotation.pdf',
    },
    behaviour: { delayBetweenPiecesMs: 5 },
  });
  ({ serve, folder } = app);
});

test.afterAll(async () => {
  await app?.dispose();
});

/** Presses Tab until the focused element matches `selector`; fails if it never gets there. */
async function tabTo(page: Page, selector: string, limit = 80): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    if ((await page.locator(`${selector}:focus`).count()) > 0) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

test('the main flow with the keyboard alone: add a folder, ask, read the steps, open the cited page', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(serve.url);
  await tabTo(page, '[data-testid="folder-path-input"]');
  await page.keyboard.type(folder);
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="document-item"][data-state="indexed"]')).toHaveCount(2, {
    timeout: 120_000,
  });
  await expect(page.getByTestId('role-row').filter({ hasText: 'scripted-chat' }).first()).toBeAttached({
    timeout: 30_000,
  });

  await tabTo(page, '[data-testid="question-input"]');
  await page.keyboard.type('How does TraceMonkey compile hot loops?');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('answer-status').last()).toHaveText('Verified', { timeout: 60_000 });

  await tabTo(page, '[data-testid="trace-toggle"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('trace-toggle').last()).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('trace-step').first()).toBeVisible();

  await tabTo(page, '[data-testid="citation-marker"]');
  await page.keyboard.press('Enter');
  const viewer = page.getByTestId('page-viewer');
  await expect(viewer).toBeVisible();
  await expect(viewer.getByTestId('page-viewer-close')).toBeFocused();
  await expect(viewer.getByTestId('page-image')).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('Control+Equal');
  await expect(viewer.getByTestId('zoom-level')).toHaveText('125%');
  const before = await viewer.getByTestId('page-number').innerText();
  await page.keyboard.press('ArrowRight');
  await expect(viewer.getByTestId('page-number')).not.toHaveText(before);
  await tabTo(page, '[data-testid="zoom-fit"]');
  await page.keyboard.press('Enter');
  await expect(viewer.getByTestId('zoom-level')).toHaveText('100%');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  // Focus returns to the citation the viewer was opened from.
  await expect(page.getByTestId('citation-marker').first()).toBeFocused();
});

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: unknown[] }>;
}

async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the debugging protocol: the app's CSP (script-src 'self') stays as it ships.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(await readFile(axePath, 'utf8'));
  const violations = await page.evaluate(async () => {
    // With no context axe checks the whole document.
    const axe = (
      globalThis as unknown as {
        axe: { run: (options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations;
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

test('axe-core finds no serious or critical problem on any panel, light and dark, small and large', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const counts: Array<{ view: string; serious: number; rules: string }> = [];
  const record = async (view: string) => {
    const found = await seriousViolations(page);
    counts.push({
      view,
      serious: found.reduce((sum, violation) => sum + violation.nodes.length, 0),
      rules: found
        .map((violation) => `${violation.id} ${JSON.stringify(violation.nodes.map((node) => node.target))}`)
        .join(', '),
    });
  };
  for (const size of [
    // A narrow window: the library and the models open over the chat, the viewer fills the window.
    { width: 360, height: 800 },
    { width: 1024, height: 700 },
    { width: 1440, height: 900 },
  ]) {
    for (const scheme of ['light', 'dark'] as const) {
      const label = `${size.width}x${size.height} ${scheme}`;
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(serve.url);
      await expect(page.locator('[data-testid="document-item"][data-state="indexed"]')).toHaveCount(2, {
        timeout: 60_000,
      });
      const select = page.getByTestId('conversation-select');
      const option = select.locator('option', { hasText: 'TraceMonkey' }).first();
      await expect(option).toBeAttached({ timeout: 30_000 });
      await select.selectOption((await option.getAttribute('value'))!);
      await expect(page.getByTestId('citation-marker').first()).toBeVisible({ timeout: 30_000 });
      await page.getByTestId('trace-toggle').last().click();
      await record(`${label}: library and chat with steps`);
      const libraryToggle = page.getByTestId('library-toggle');
      if (await libraryToggle.isVisible()) {
        await libraryToggle.click();
        await record(`${label}: library over the chat`);
        await libraryToggle.click();
      }

      const toggle = page.getByTestId('panel-toggle');
      if (!(await page.getByTestId('tab-models').isVisible())) await toggle.click();
      await page.getByTestId('tab-models').click();
      await record(`${label}: models`);
      await page.getByTestId('tab-settings').click();
      await record(`${label}: settings`);
      if (size.width < 1100) await toggle.click();

      await page.getByTestId('citation-marker').first().click();
      await expect(page.getByTestId('page-image')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('text-layer')).toBeAttached({ timeout: 30_000 });
      await record(`${label}: page viewer`);
      await page.keyboard.press('Escape');
    }
  }
  console.log('axe-core serious + critical, by view:');
  console.table(counts);
  const problems = counts.filter((count) => count.serious > 0);
  expect(problems, JSON.stringify(problems, null, 2)).toEqual([]);
});
