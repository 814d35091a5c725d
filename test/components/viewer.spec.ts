/**
 * The page viewer as a person uses it: the page and where it is in the document, next and previous
 * page, zoom, and a thumbnail that jumps to its page. The engine is the harness's stand-in; the
 * document is annual-report-2023.pdf, 3 pages.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './componentTest';

const DOCUMENT = { documentId: 'doc-annual', page: 1, title: 'annual-report-2023.pdf' };

function pageImage(page: Page, number: number) {
  return page.getByRole('img', { name: `Page ${number} of annual-report-2023.pdf` });
}

test('next and previous page move through the document and stop at its ends', async ({ page, openPanel }) => {
  const standIn = await openPanel({ panel: 'viewer', viewer: DOCUMENT });
  const viewer = page.getByRole('dialog', { name: 'annual-report-2023.pdf, page 1' });
  await expect(viewer).toBeVisible();
  await expect(pageImage(page, 1)).toBeVisible();
  await expect(page.getByTestId('page-number')).toHaveText('Page 1 of 3');
  await expect(page.getByRole('button', { name: 'Previous page' })).toBeDisabled();

  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByTestId('page-number')).toHaveText('Page 2 of 3');
  await expect(pageImage(page, 2)).toBeVisible();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByTestId('page-number')).toHaveText('Page 3 of 3');
  await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();

  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(page.getByTestId('page-number')).toHaveText('Page 2 of 3');
  const fullPages = (await standIn.calls('pages.get')).filter(
    (input) => (input as { size: string }).size === 'full',
  );
  expect(fullPages.map((input) => (input as { page: number }).page)).toEqual([1, 2, 3]);
});

test('paging on lets go of the page left behind: its image and words are cancelled', async ({
  page,
  openPanel,
}) => {
  const standIn = await openPanel({ panel: 'viewer', viewer: DOCUMENT });
  await standIn.hold('pages.get');
  await standIn.hold('pages.words');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByTestId('page-number')).toHaveText('Page 2 of 3');
  await expect
    .poll(async () => (await standIn.calls('pages.get')).filter((input) => isFullPage(input, 2)).length)
    .toBe(1);
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByTestId('page-number')).toHaveText('Page 3 of 3');
  await expect
    .poll(async () => (await standIn.cancelled('pages.get')).filter((input) => isFullPage(input, 2)).length)
    .toBe(1);
  expect(await standIn.cancelled('pages.words')).toEqual([{ documentId: DOCUMENT.documentId, page: 2 }]);
  // Thumbnails stay wanted, and so does the page in view: once answered, page 3 is shown.
  expect((await standIn.cancelled('pages.get')).filter((input) => !isFullPage(input, 2))).toEqual([]);
  await standIn.release('pages.get');
  await standIn.release('pages.words');
  await expect(pageImage(page, 3)).toBeVisible();
});

function isFullPage(input: unknown, number: number): boolean {
  const { page, size } = input as { page: number; size: string };
  return page === number && size === 'full';
}

test('zoom in and out change the page’s size, and fit width restores it', async ({ page, openPanel }) => {
  await openPanel({ panel: 'viewer', viewer: DOCUMENT });
  const image = pageImage(page, 1);
  await expect(image).toBeVisible();
  const level = page.getByTestId('zoom-level');
  await expect(level).toHaveText('100%');
  const fitted = (await image.boundingBox())?.width ?? 0;
  expect(fitted).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(level).toHaveText('125%');
  await expect
    .poll(async () => Math.round((await image.boundingBox())?.width ?? 0))
    .toBe(Math.round(fitted * 1.25));

  await page.getByRole('button', { name: 'Zoom out' }).click();
  await page.getByRole('button', { name: 'Zoom out' }).click();
  await expect(level).toHaveText('80%');
  await expect
    .poll(async () => Math.round((await image.boundingBox())?.width ?? 0))
    .toBe(Math.round(fitted * 0.8));

  await page.getByRole('button', { name: 'Fit width' }).click();
  await expect(level).toHaveText('100%');
});

test('a thumbnail jumps to its page and marks it as the current one', async ({ page, openPanel }) => {
  await openPanel({ panel: 'viewer', viewer: DOCUMENT });
  const strip = page.getByRole('navigation', { name: 'Pages' });
  await expect(strip.getByRole('button')).toHaveCount(3);
  await expect(strip.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

  await strip.getByRole('button', { name: 'Page 3' }).click();
  await expect(page.getByTestId('page-number')).toHaveText('Page 3 of 3');
  await expect(pageImage(page, 3)).toBeVisible();
  await expect(strip.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
  await expect(strip.getByRole('button', { name: 'Page 1' })).not.toHaveAttribute('aria-current', 'page');

  await page.getByRole('button', { name: 'Pages', exact: true }).click();
  await expect(strip).toHaveCount(0);
});

test('Close closes the viewer', async ({ page, openPanel }) => {
  await openPanel({ panel: 'viewer', viewer: DOCUMENT });
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
