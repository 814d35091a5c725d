import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { corpusDir, removeFolders, withoutCorpus } from '../helpers/shared';
import { startServe, type ServeProcess } from './serveProcess';

let serve: ServeProcess;
let dataDir: string;
let folder: string;

test.beforeAll(async () => {
  test.skip(withoutCorpus('the library browser end-to-end test on corpus PDFs'));
  dataDir = await mkdtemp(join(tmpdir(), 'quire-e2e-data-'));
  folder = await mkdtemp(join(tmpdir(), 'quire-e2e-browser-'));
  await mkdir(join(folder, 'reports'));
  await copyFile(join(corpusDir, 'pdfjs', 'tracemonkey.pdf'), join(folder, 'tracemonkey.pdf'));
  await copyFile(join(corpusDir, 'docling', 'pdf__normal_4pages.pdf'), join(folder, 'reports', 'four.pdf'));
  await copyFile(join(corpusDir, 'odd', 'pdfjs', 'bug1020226.pdf'), join(folder, 'broken.pdf'));
  serve = await startServe(dataDir);
});

test.afterAll(async () => {
  try {
    await serve?.stop();
  } finally {
    await removeFolders(dataDir, folder);
  }
});

test('the library: open, filter, sort, reasons, retry, counts, and remove with confirmation and undo', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(serve.url);
  await page.getByTestId('folder-path-input').fill(folder);
  await page.getByTestId('add-folder-button').click();
  const items = page.getByTestId('document-item');
  await expect(items).toHaveCount(3, { timeout: 30_000 });
  await expect(page.locator('[data-testid="document-item"][data-state="indexed"]')).toHaveCount(2, {
    timeout: 90_000,
  });
  // Progress: a line per kind of work; text is done, with no file name left behind.
  const textLine = page.locator('[data-testid="work-line"][data-kind="text"]');
  await expect(textLine).toContainText(/\d+ of \d+ pages/);
  await expect(textLine.getByTestId('work-current')).toHaveCount(0, { timeout: 30_000 });
  const broken = items.filter({ hasText: 'broken.pdf' });
  await expect(broken).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
  // Its own name, with the folder on hover; the reason for every state that is not plain "indexed".
  const four = items.filter({ hasText: 'four.pdf' });
  await expect(four.getByTestId('open-document')).toHaveText('four.pdf');
  await expect(four.getByTestId('open-document')).toHaveAttribute('title', /reports/);
  await expect(broken.getByTestId('document-error')).toContainText('cannot be read');
  await expect(broken.getByTestId('document-state')).toHaveAttribute('title', /cannot be read/);
  await expect(four.getByTestId('document-state')).toHaveAttribute('title', 'Read and searchable.');
  await expect(page.getByTestId('folder-count')).toHaveText('3');
  // The language each file's text reads as, with its size; none for a file that could not be read.
  await expect(four.getByTestId('document-language')).toHaveText('Korean');
  const paper = items.filter({ hasText: 'tracemonkey.pdf' });
  await expect(paper.getByTestId('document-language')).toHaveText('English');
  await expect(paper.getByTestId('document-language')).toHaveAttribute('title', 'Its text reads as English.');
  await expect(broken.getByTestId('document-language')).toHaveCount(0);

  // Filter and sort, as the user types and picks.
  await page.getByTestId('library-filter').fill('four');
  await expect(items).toHaveCount(1);
  await expect(page.getByTestId('folder-count')).toHaveText('1 of 3');
  await page.getByTestId('library-filter').fill('nothing like this');
  await expect(page.getByTestId('document-list-empty')).toContainText('matches the filter');
  await page.getByTestId('library-filter').fill('');
  await page.getByTestId('library-state-filter').selectOption('problems');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText('broken.pdf');
  await page.getByTestId('library-state-filter').selectOption('all');
  const names = () => page.getByTestId('open-document').allTextContents();
  await page.getByTestId('library-sort').selectOption('pages');
  await expect.poll(names).toEqual(['tracemonkey.pdf', 'four.pdf', 'broken.pdf']);
  await page.getByTestId('library-sort').selectOption('state');
  await expect.poll(async () => (await names())[0]).toBe('broken.pdf');
  await page.getByTestId('library-sort').selectOption('name');
  await expect.poll(names).toEqual(['broken.pdf', 'four.pdf', 'tracemonkey.pdf']);

  // Retry reads the broken file again; it fails again, with its reason.
  await broken.getByTestId('retry-document').click();
  await expect(broken).not.toHaveAttribute('data-state', 'failed', { timeout: 5_000 });
  // A retry is read at once, ahead of the page images still being drawn in the background.
  await expect(broken).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
  await expect(broken.getByTestId('document-error')).toContainText('cannot be read');
  await expect(four.getByTestId('retry-document')).toHaveCount(0);

  // A click opens the document in the page viewer at its first page.
  await items.filter({ hasText: 'tracemonkey.pdf' }).getByTestId('open-document').click();
  const viewer = page.getByTestId('page-viewer');
  await expect(viewer).toBeVisible();
  await expect(viewer.getByTestId('page-number')).toContainText('1');
  await page.getByTestId('page-viewer-close').click();

  // Remove asks first; "Keep it" keeps it.
  await page.getByTestId('remove-folder-button').click();
  await page.getByTestId('cancel-remove-folder').click();
  await expect(items).toHaveCount(3);
  await page.getByTestId('remove-folder-button').click();
  await page.getByTestId('confirm-remove-folder').click();
  await expect(page.getByTestId('folder-item')).toHaveCount(0);
  await expect(page.getByTestId('removal-undo')).toContainText('s to undo');
  await page.getByTestId('undo-remove').click();
  await expect(items).toHaveCount(3);
  await expect(page.locator('[data-testid="document-item"][data-state="indexed"]')).toHaveCount(2);
  await expect(page.getByTestId('removal-undo')).toHaveCount(0);

  // Removed for good: the undo offer goes after 8 s, and the folder stays out.
  await page.getByTestId('remove-folder-button').click();
  await page.getByTestId('confirm-remove-folder').click();
  await expect(page.getByTestId('removal-undo')).toBeVisible();
  await expect(page.getByTestId('removal-undo')).toHaveCount(0, { timeout: 12_000 });
  await page.reload();
  await expect(page.getByTestId('library-empty')).toBeVisible({ timeout: 15_000 });
});
