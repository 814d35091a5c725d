import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startServe, type ServeProcess } from './serveProcess';
import { removeFolders } from '../helpers/shared';

const FILES = 600;

let serve: ServeProcess;
let dataDir: string;
let folder: string;

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'quire-e2e-data-'));
  folder = await mkdtemp(join(tmpdir(), 'quire-e2e-large-'));
  for (let n = 0; n < FILES; n++) {
    const name = `record-${String(n).padStart(4, '0')}`;
    await writeFile(join(folder, `${name}.md`), `# ${name}\n\nNote number ${n} of the large folder.\n`);
  }
  serve = await startServe(dataDir);
});

test.afterAll(async () => {
  try {
    await serve?.stop();
  } finally {
    await removeFolders(dataDir, folder);
  }
});

test('a folder of hundreds of files: only the rows in view are drawn, and every row can be reached', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(serve.url);
  await page.getByTestId('folder-path-input').fill(folder);
  await page.getByTestId('add-folder-button').click();
  await expect(page.getByTestId('folder-count')).toHaveText(String(FILES), { timeout: 60_000 });

  const list = page.getByTestId('document-list');
  await expect(list).toHaveAttribute('data-windowed', 'true');
  const items = page.getByTestId('document-item');
  await expect(items.first()).toContainText('record-0000.md');
  const drawn = await items.count();
  expect(drawn).toBeGreaterThan(5);
  expect(drawn).toBeLessThan(FILES / 2);

  // Scrolling the library to its end draws the last file in place of the first.
  // Rows are measured as they are drawn, so the list's height settles as the end comes near.
  const last = items.filter({ hasText: 'record-0599.md' });
  await expect
    .poll(async () => {
      await page.locator('.sidebar').evaluate((sidebar) => sidebar.scrollTo({ top: sidebar.scrollHeight }));
      return last.isVisible();
    })
    .toBe(true);
  await expect(items.filter({ hasText: 'record-0000.md' })).toHaveCount(0);

  // Filtering works on every file, drawn or not.
  await page.getByTestId('library-filter').fill('record-0321');
  await expect(items).toHaveCount(1);
  await expect(page.getByTestId('folder-count')).toHaveText(`1 of ${FILES}`);
  await expect(list).not.toHaveAttribute('data-windowed', 'true');

  // A window opened on the library gets its first rows in the page itself: they are drawn even when
  // the engine never answers on the socket.
  const silent = await page.context().newPage();
  await silent.routeWebSocket(/\/ws/, () => undefined);
  await silent.goto(serve.url);
  await expect(silent.getByTestId('document-item').first()).toContainText('record-0000.md');
  await silent.close();

  // Over the socket, it then lists only the rows after those, in pages, in order.
  const frames: Array<{ sent: boolean; message: { name?: string; input?: { after?: string } } }> = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', (frame) =>
      frames.push({ sent: true, message: JSON.parse(String(frame.payload)) }),
    );
  });
  await page.reload();
  await expect(items.first()).toContainText('record-0000.md');
  await expect(page.getByTestId('question-input')).toBeVisible();
  // The rows come before the socket opens: its first listing may still be on its way.
  const firstList = () => frames.find((f) => f.sent && f.message.name === 'library.list');
  await expect.poll(() => firstList() !== undefined).toBe(true);
  expect(firstList()?.message.input?.after).toMatch(/record-0059\.md$/);
  await expect(page.getByTestId('folder-count')).toHaveText(String(FILES));
  await expect
    .poll(async () => {
      await page.locator('.sidebar').evaluate((sidebar) => sidebar.scrollTo({ top: sidebar.scrollHeight }));
      return last.isVisible();
    })
    .toBe(true);
});
