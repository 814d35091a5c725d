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

/** Everything in the panel that sticks out sideways, or a folder count that overlaps its name. */
async function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const panel = document.querySelector('aside.sidebar');
    if (!panel) return ['no library panel'];
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? '').slice(0, 40)}"`;
    if (panel.scrollWidth > panel.clientWidth) {
      faults.push(`the panel scrolls sideways: ${panel.scrollWidth} > ${panel.clientWidth}`);
    }
    const panelBox = panel.getBoundingClientRect();
    const rows = panel.querySelectorAll(
      '.folder-item, .folder-item__head, .document-item, .document-item__head, .document-item__meta, .collection-item, .collection-item__head, .collection-item__path',
    );
    for (const row of rows) {
      if (row.scrollWidth > row.clientWidth) {
        faults.push(`${describe(row)} overflows: ${row.scrollWidth} > ${row.clientWidth}`);
      }
    }
    // Every control and name stays inside the panel (a clipped "Remove" is cut off, even if hidden).
    for (const element of panel.querySelectorAll('button, select, input, .middle-name')) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && (box.right > panelBox.right + 0.5 || box.left < panelBox.left - 0.5)) {
        faults.push(`${describe(element)} reaches outside the panel (${box.left}-${box.right})`);
      }
    }
    const overlap = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    for (const [nameSelector, countSelector] of [
      ['.folder-item__name', '.folder-item__count'],
      ['.collection-item__name', '.collection-item__count'],
    ] as const) {
      for (const name of panel.querySelectorAll(nameSelector)) {
        const row = name.parentElement?.closest('.folder-item__head, .collection-item__head');
        const count = row?.querySelector(countSelector);
        if (!count) continue;
        const nameBox = name.getBoundingClientRect();
        if (nameBox.width < 1) faults.push(`${describe(name)} has no room`);
        if (overlap(nameBox, count.getBoundingClientRect())) {
          faults.push(`${describe(name)} overlaps its count`);
        }
      }
    }
    return faults;
  });
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
    await expect(longFile.locator('.middle-name__tail')).toBeVisible();
    const collectionName = page.getByTestId('collection-item').first().locator('.collection-item__name');
    await expect(collectionName).toHaveAttribute('title', COLLECTIONS[0]!.name);
    expect((await collectionName.boundingBox())!.width).toBeGreaterThan(60);
  });
}
