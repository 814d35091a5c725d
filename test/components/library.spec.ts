/**
 * The library panel as a person uses it: filtering and sorting the documents, retrying a file that
 * failed, and removing a folder with the chance to undo it. The engine is the harness's stand-in.
 */
import type { Page } from '@playwright/test';
import { DOCUMENTS, REPORTS } from './harness/sampleLibrary';
import { expect, test } from './componentTest';

function documentNames(page: Page) {
  return page.getByTestId('document-item').getByTestId('open-document');
}

test('typing in the filter narrows the documents and the folder says how many are shown', async ({
  page,
  openPanel,
}) => {
  await openPanel({ panel: 'library' });
  await expect(documentNames(page)).toHaveCount(4);

  await page.getByRole('searchbox', { name: 'Filter documents by name' }).fill('budget');
  await expect(documentNames(page)).toHaveText(['budget-2024.pdf']);
  await expect(page.getByTestId('folder-count')).toHaveText('1 of 4');

  await page.getByRole('searchbox', { name: 'Filter documents by name' }).fill('no such file');
  await expect(page.getByText('No document here matches the filter.')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Filter documents by name' }).fill('');
  await page
    .getByRole('combobox', { name: 'Show documents in state' })
    .selectOption({ label: 'Needs attention' });
  await expect(documentNames(page)).toHaveText(['budget-2024.pdf']);
});

test('sorting orders the documents by the chosen measure', async ({ page, openPanel }) => {
  await openPanel({ panel: 'library' });
  await expect(documentNames(page)).toHaveText([
    'annual-report-2023.pdf',
    'budget-2024.pdf',
    'minutes-march.docx',
    'safety-manual.pdf',
  ]);
  await page.getByRole('combobox', { name: 'Sort documents by' }).selectOption({ label: 'Sort by size' });
  // Largest first; equal sizes by name.
  const bySize = [...DOCUMENTS].sort((a, b) => b.bytes - a.bytes).map((doc) => doc.relativePath);
  expect(bySize).toEqual([
    'safety-manual.pdf',
    'annual-report-2023.pdf',
    'budget-2024.pdf',
    'minutes-march.docx',
  ]);
  await expect(documentNames(page)).toHaveText(bySize);
});

test('Retry reads a failed file again, and its row shows the state the engine sends', async ({
  page,
  openPanel,
}) => {
  const standIn = await openPanel({ panel: 'library' });
  const row = page.getByTestId('document-item').filter({ hasText: 'budget-2024.pdf' });
  await expect(row.getByTestId('document-state')).toHaveText('Failed');
  await expect(row).toContainText('The file ended before its last page');
  await expect(
    page
      .getByTestId('document-item')
      .filter({ hasText: 'annual-report-2023.pdf' })
      .getByRole('button', {
        name: /^Retry/,
      }),
  ).toHaveCount(0);

  await row.getByRole('button', { name: 'Retry budget-2024.pdf' }).click();
  expect(await standIn.calls('library.retry')).toEqual([{ documentId: 'doc-budget' }]);
  // The row shows only what the engine sends, which it does before it answers.
  await expect(row.getByTestId('document-state')).toHaveText('Failed');
  const budget = DOCUMENTS.find((doc) => doc.id === 'doc-budget')!;
  await standIn.emit('library.onChanged', {
    from: 1,
    to: 2,
    roots: [REPORTS],
    documents: [{ ...budget, state: 'queued', error: null }],
    skipped: [],
    scanning: false,
    removed: [],
  });
  await expect(row.getByTestId('document-state')).toHaveText('Queued');
  await expect(row).not.toContainText('The file ended before its last page');
});

test('a Retry the engine refuses shows why, on the row', async ({ page, openPanel }) => {
  await openPanel({
    panel: 'library',
    answers: { 'library.retry': { error: { code: 'not_readable', message: 'The file cannot be read.' } } },
  });
  const row = page.getByTestId('document-item').filter({ hasText: 'budget-2024.pdf' });
  await row.getByRole('button', { name: 'Retry budget-2024.pdf' }).click();
  await expect(row.getByRole('alert')).toContainText('The file cannot be read.');
  await expect(row.getByTestId('document-state')).toHaveText('Failed');
});

test('Remove asks first, takes the folder away, and Undo asks the engine to put it back', async ({
  page,
  openPanel,
}) => {
  const standIn = await openPanel({ panel: 'library' });
  const folder = page.getByTestId('folder-item');
  await page.getByRole('button', { name: `Remove folder ${REPORTS.path}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove Reports?' });
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(folder).toHaveCount(1);
  expect(await standIn.calls('library.removeFolder')).toEqual([]);

  await page.getByRole('button', { name: `Remove folder ${REPORTS.path}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Remove Reports?' })
    .getByRole('button', { name: 'Remove' })
    .click();
  expect(await standIn.calls('library.removeFolder')).toEqual([{ rootId: REPORTS.id, undoable: true }]);
  // The engine sends the folder's going before it answers.
  await standIn.emit('library.onChanged', {
    from: 1,
    to: 2,
    roots: [],
    documents: [],
    skipped: [],
    scanning: false,
    removed: DOCUMENTS.map((doc) => doc.id),
  });
  await expect(folder).toHaveCount(0);
  const offer = page.getByRole('status').filter({ hasText: 'Removed Reports from the library' });
  await expect(offer).toBeVisible();

  await offer.getByRole('button', { name: 'Undo' }).click();
  await expect(offer).toHaveCount(0);
  expect(await standIn.calls('library.undoRemove')).toEqual([{ rootId: REPORTS.id }]);
  // The engine puts the folder back and sends the change.
  await standIn.emit('library.onChanged', {
    from: 2,
    to: 3,
    roots: [REPORTS],
    documents: DOCUMENTS,
    skipped: [],
    scanning: false,
    removed: [],
  });
  await expect(folder).toHaveCount(1);
  await expect(documentNames(page)).toHaveCount(4);
});

test('a file Quire could not read offers no "Ask about this"', async ({ page, openPanel }) => {
  await openPanel({ panel: 'library' });
  const row = (name: string) => page.getByTestId('document-item').filter({ hasText: name });
  await expect(row('annual-report-2023.pdf').getByTestId('ask-about-button')).toHaveCount(1);
  await expect(row('budget-2024.pdf').getByTestId('document-state')).toHaveText('Failed');
  await expect(row('budget-2024.pdf').getByTestId('ask-about-button')).toHaveCount(0);
});
