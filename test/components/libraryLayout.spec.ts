/**
 * The whole window (header, library, chat, models and settings) with names people really have (long,
 * unbroken, not Latin), many folders and a collection, at 360, 1280 and 1440 px: nothing may stick out
 * sideways, no folder's count may sit on its name, the chat keeps a usable width, and on a narrow
 * window the library and the page viewer open over the chat and give the way back.
 */
import type { Locator, Page } from '@playwright/test';
import type { Collection } from '../../src/shared/domain/scope';
import type { DocumentInfo, LibraryRoot } from '../../src/shared/domain/library';
import { expect, test } from './componentTest';

const FOLDER_NAMES = [
  'Geschäftsberichte_und_Jahresabschlüsse_der_Tochtergesellschaften_2019-2024',
  '年度報告書と監査済み財務諸表のアーカイブ',
  'Reports',
  'a-folder-whose-name-never-stops-because-nobody-ever-renamed-it-since-2009',
];

const FILE_NAMES = [
  'cardinal-health-annual-report-fiscal-year-2023-final-FINAL-v7.pdf',
  'Überprüfung_der_Sicherheitsanweisungen_für_Laborgeräte_überarbeitet.pdf',
  '財務諸表の注記および監査報告書の全文と付属資料.pdf',
  'short.pdf',
  'x'.repeat(140) + '.docx',
];

function libraryOf(): { roots: LibraryRoot[]; documents: DocumentInfo[] } {
  const roots = FOLDER_NAMES.map((name, index) => ({
    id: `root-${index}`,
    path: `/home/ana/${'Archiv/'.repeat(index)}${name}`,
    addedAt: '2026-03-02T09:00:00.000Z',
    error: null,
  }));
  const documents = roots.flatMap((root) =>
    FILE_NAMES.map((name, index): DocumentInfo => ({
      id: `${root.id}-doc-${index}`,
      rootId: root.id,
      path: `${root.path}/${name}`,
      relativePath: index === 1 ? `Unterordner_mit_langem_Namen/${name}` : name,
      kind: name.endsWith('.docx') ? 'docx' : 'pdf',
      bytes: 1_234_567 * (index + 1),
      modifiedMs: Date.parse('2026-03-01T12:00:00Z'),
      pages: 120 + index,
      state: index === 2 ? 'failed' : 'indexed',
      error: index === 2 ? 'The file ended before its last page; it may still have been copying.' : null,
    })),
  );
  return { roots, documents };
}

const COLLECTIONS: Collection[] = [
  {
    name: 'Everything_about_the_2023_restructuring_and_the_Ernst_&_Young_findings',
    paths: [libraryOf().documents[0]!.path, libraryOf().documents[2]!.path],
    createdAt: 1,
    updatedAt: 1,
  },
  { name: 'Prüfberichte', paths: [], createdAt: 2, updatedAt: 2 },
];

/** Measured in the page by the harness (harness/libraryLayoutFaults.ts, harness/windowLayoutFaults.ts). */
function faults(page: Page, which: 'libraryLayoutFaults' | 'windowLayoutFaults'): Promise<string[]> {
  return page.evaluate(
    (which) => (globalThis as unknown as Record<typeof which, () => string[]>)[which](),
    which,
  );
}

async function openApp(page: Page, openPanel: OpenPanel, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  const { roots, documents } = libraryOf();
  await openPanel({
    panel: 'app',
    answers: {
      'library.list': { value: { roots, documents, skipped: [], scanning: false, revision: 1 } },
      'collections.list': { value: COLLECTIONS },
    },
  });
  await expect(page.getByRole('main', { name: 'Questions and answers' })).toBeVisible();
}

/** The library's rows, drawn whole or cut in the middle, and nothing in it sticking out. */
async function expectLibraryFits(page: Page, library: Locator): Promise<void> {
  await expect(library.getByTestId('collection-item')).toHaveCount(COLLECTIONS.length);
  await expect(library.getByTestId('folder-item')).toHaveCount(FOLDER_NAMES.length);
  // Every row offers "Add to collection…" once a collection exists.
  await expect(library.getByTestId('add-to-collection').first()).toBeVisible();

  expect(await faults(page, 'libraryLayoutFaults')).toEqual([]);
  expect(await faults(page, 'windowLayoutFaults')).toEqual([]);

  // Names lose their middle, not their end, and the whole name is on hover.
  const longFile = library.getByTestId('open-document').filter({ hasText: 'FINAL-v7.pdf' }).first();
  expect(await longFile.getAttribute('title')).toContain(FILE_NAMES[0]!);
  // Drawn in two pieces, read whole.
  await expect(library.getByRole('button', { name: FILE_NAMES[0]!, exact: true }).first()).toBeVisible();
  await expect(longFile.locator('.middle-name__tail')).toBeVisible();
  const collectionName = library.getByTestId('collection-item').first().locator('.collection-item__name');
  await expect(collectionName).toHaveAttribute('title', COLLECTIONS[0]!.name);
  expect((await collectionName.boundingBox())!.width).toBeGreaterThan(60);
}

type OpenPanel = Parameters<Parameters<typeof test>[2]>[0]['openPanel'];

test('a 360 px window gives the chat its width and opens the library over it, and back', async ({
  page,
  openPanel,
}) => {
  await openApp(page, openPanel, 360);
  const chat = page.getByRole('main', { name: 'Questions and answers' });
  const library = page.getByRole('complementary', { name: 'Library' });
  const toggle = page.getByRole('button', { name: 'Library', exact: true });

  // The chat has the window, less nothing; the library waits behind its toggle.
  await expect(library).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect((await chat.boundingBox())!.width).toBeGreaterThanOrEqual(300);
  expect(await faults(page, 'windowLayoutFaults')).toEqual([]);

  // From the keyboard: the library opens over the chat with the focus in it, Escape gives it back.
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(library).toBeVisible();
  await expect(library).toBeFocused();
  const libraryBox = (await library.boundingBox())!;
  expect(libraryBox.x).toBeGreaterThanOrEqual(0);
  expect(libraryBox.x + libraryBox.width).toBeLessThanOrEqual(360);
  await expectLibraryFits(page, library);
  await page.keyboard.press('Escape');
  await expect(library).toBeHidden();
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');

  // "Ask about this" in the library closes it: the question box it focuses is not left underneath.
  await toggle.click();
  await library.getByTestId('ask-about-button').first().click();
  await expect(library).toBeHidden();
  await expect(page.getByTestId('question-input')).toBeFocused();

  // A document opens in a viewer that fills the window, Close beside its title; back in the library.
  await toggle.click();
  await library.getByTestId('open-document').first().click();
  const viewer = page.getByTestId('page-viewer');
  await expect(viewer).toBeVisible();
  const viewerBox = (await viewer.boundingBox())!;
  expect(viewerBox.width).toBeGreaterThanOrEqual(359);
  const close = viewer.getByRole('button', { name: 'Close', exact: true });
  await expect(close).toBeInViewport({ ratio: 1 });
  const [closeBox, titleBox] = [(await close.boundingBox())!, (await viewer.locator('h2').boundingBox())!];
  expect(Math.abs(closeBox.y + closeBox.height / 2 - (titleBox.y + titleBox.height / 2))).toBeLessThan(8);
  expect(titleBox.width).toBeGreaterThan(120);
  expect(await faults(page, 'windowLayoutFaults')).toEqual([]);
  await close.click();
  await expect(viewer).toBeHidden();
  await expect(library).toBeVisible();
  await expect(library.getByTestId('open-document').first()).toBeFocused();

  // Models and settings take the library's place, never both at once.
  const sideToggle = page.getByTestId('panel-toggle');
  await sideToggle.click();
  const side = page.getByRole('complementary', { name: 'Models and settings' });
  await expect(side).toBeVisible();
  await expect(side).toBeFocused();
  await expect(library).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  const sideBox = (await side.boundingBox())!;
  expect(sideBox.x).toBeGreaterThanOrEqual(0);
  expect(sideBox.x + sideBox.width).toBeLessThanOrEqual(360);
  await page.keyboard.press('Escape');
  await expect(side).toBeHidden();
  await expect(sideToggle).toBeFocused();
  expect(await faults(page, 'windowLayoutFaults')).toEqual([]);
});

for (const width of [1280, 1440]) {
  test(`a ${width} px window shows library, chat and models side by side, long names fitting`, async ({
    page,
    openPanel,
  }) => {
    await openApp(page, openPanel, width);
    const library = page.getByRole('complementary', { name: 'Library' });
    const columns = [
      library,
      page.getByRole('main', { name: 'Questions and answers' }),
      page.getByRole('complementary', { name: 'Models and settings' }),
    ];
    const boxes = [];
    for (const column of columns) {
      await expect(column).toBeVisible();
      boxes.push((await column.boundingBox())!);
    }
    // Three columns, left to right, none on another.
    for (const [left, right] of [
      [boxes[0]!, boxes[1]!],
      [boxes[1]!, boxes[2]!],
    ]) {
      expect(left!.x + left!.width).toBeLessThanOrEqual(right!.x + 0.5);
    }
    expect(boxes[1]!.width).toBeGreaterThanOrEqual(500);
    await expect(page.getByRole('button', { name: 'Library', exact: true })).toBeHidden();
    await expectLibraryFits(page, library);
  });
}
