/**
 * The library panel with names people really have (long, unbroken, not Latin), many folders and a
 * collection, at the width a 360 px and a 1440 px window give it: nothing may stick out sideways and
 * no folder's count may sit on its name.
 */
import type { Page } from '@playwright/test';
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

/** Measured in the page by the harness (harness/libraryLayoutFaults.ts). */
function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (globalThis as unknown as { libraryLayoutFaults: () => string[] }).libraryLayoutFaults(),
  );
}

for (const width of [360, 1440]) {
  test(`long names, many folders and a collection fit the panel of a ${width} px window`, async ({
    page,
    openPanel,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const { roots, documents } = libraryOf();
    await openPanel({
      panel: 'library',
      inAppColumns: true,
      answers: {
        'library.list': { value: { roots, documents, skipped: [], scanning: false, revision: 1 } },
        'collections.list': { value: COLLECTIONS },
      },
    });
    await expect(page.getByTestId('collection-item')).toHaveCount(COLLECTIONS.length);
    await expect(page.getByTestId('folder-item')).toHaveCount(roots.length);
    // Every row offers "Add to collection…" once a collection exists.
    await expect(page.getByTestId('add-to-collection').first()).toBeVisible();

    expect(await layoutFaults(page)).toEqual([]);

    // Names lose their middle, not their end, and the whole name is on hover.
    const longFile = page.getByTestId('open-document').filter({ hasText: 'FINAL-v7.pdf' }).first();
    expect(await longFile.getAttribute('title')).toContain(FILE_NAMES[0]!);
    // Drawn in two pieces, read whole.
    await expect(page.getByRole('button', { name: FILE_NAMES[0]!, exact: true }).first()).toBeVisible();
    await expect(longFile.locator('.middle-name__tail')).toBeVisible();
    const collectionName = page.getByTestId('collection-item').first().locator('.collection-item__name');
    await expect(collectionName).toHaveAttribute('title', COLLECTIONS[0]!.name);
    expect((await collectionName.boundingBox())!.width).toBeGreaterThan(60);
  });
}
