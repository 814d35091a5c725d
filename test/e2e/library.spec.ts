import { cp, copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import WebSocket from 'ws';
import { corpusDir, removeFolders, withoutCorpus } from '../helpers/shared';
import { startServe, type ServeProcess } from './serveProcess';

let serve: ServeProcess;
let dataDir: string;
let folder: string;

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'quire-e2e-data-'));
  folder = await mkdtemp(join(tmpdir(), 'quire-e2e-library-'));
  serve = await startServe(dataDir);
});

test.afterAll(async () => {
  try {
    await serve?.stop();
  } finally {
    await removeFolders(dataDir, folder);
  }
});

test('a folder added through the UI lists its PDFs live', async ({ page }) => {
  test.skip(withoutCorpus('the library end-to-end test on corpus PDFs'));
  await cp(join(corpusDir, 'pdfjs'), folder, { recursive: true });
  await page.goto(serve.url);
  await expect(page.getByTestId('library-empty')).toBeVisible();
  await page.getByTestId('folder-path-input').fill(join(folder, 'missing'));
  await page.getByTestId('add-folder-button').click();
  await expect(page.getByTestId('error-message').first()).toContainText('does not exist');

  await page.getByTestId('folder-path-input').fill(folder);
  await page.getByTestId('add-folder-button').click();
  const items = page.getByTestId('document-item');
  // The first scan lists every file without opening it; each PDF's pages show once it has been read.
  await expect(items).toHaveCount(12, { timeout: 30_000 });
  const tracemonkey = items.filter({ hasText: 'tracemonkey.pdf' });
  await expect(tracemonkey.getByTestId('document-pages')).toContainText('14', { timeout: 60_000 });
  await expect(items.filter({ hasText: 'pdkids.pdf' }).getByTestId('document-pages')).toContainText('55', {
    timeout: 60_000,
  });

  await copyFile(join(corpusDir, 'docling', 'pdf__normal_4pages.pdf'), join(folder, 'added later.pdf'));
  const added = items.filter({ hasText: 'added later.pdf' });
  await expect(added).toHaveCount(1, { timeout: 5000 });
  await expect(added.getByTestId('document-pages')).toContainText('4', { timeout: 60_000 });

  await rm(join(folder, 'rotation.pdf'));
  await expect(items.filter({ hasText: 'rotation.pdf' })).toHaveCount(0, { timeout: 5000 });
  await expect(items).toHaveCount(12);
  await page.screenshot({ path: 'test-results/e2e/library.png', fullPage: true });
});

test('the server refuses a wrong token and cross-origin sockets', async () => {
  const wrong = new URL(serve.url);
  wrong.searchParams.set('token', 'not-the-token');
  expect((await fetch(wrong)).status).toBe(401);
  expect((await fetch(serve.origin + '/')).status).toBe(401);
  expect((await fetch(serve.url)).status).toBe(200);

  const wsUrl = `${serve.origin.replace('http', 'ws')}/ws?token=`;
  const outcome = (url: string, origin: string) =>
    new Promise<string>((resolve) => {
      const socket = new WebSocket(url, { origin });
      socket.on('open', () => {
        socket.close();
        resolve('open');
      });
      socket.on('unexpected-response', (_request, response) => resolve(String(response.statusCode)));
      socket.on('error', (error) => resolve(error.message));
    });
  expect(await outcome(wsUrl + 'wrong', serve.origin)).toBe('401');
  expect(await outcome(wsUrl + serve.token, 'http://evil.example')).toBe('403');
  expect(await outcome(wsUrl + serve.token, serve.origin)).toBe('open');
});

test('the models panel is calm with no server running, and opens and closes from 800 to 2560 px', async ({
  page,
}) => {
  for (const width of [800, 1100, 1440, 2560]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(serve.url);
    const panel = page.locator('#side-panel');
    const toggle = page.getByTestId('panel-toggle');
    await expect(toggle).toBeVisible();
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(panel).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    // The usual ports nobody listens on are one quiet line, not a red row each.
    await expect(panel.getByTestId('no-servers')).toHaveText('No Ollama or LM Studio running: optional.', {
      timeout: 30_000,
    });
    await expect(panel.getByTestId('server-item')).toHaveCount(0);
    const box = await panel.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= width + 1, `panel inside ${width} px`).toBe(true);
    await page.screenshot({ path: `test-results/e2e/models-panel-${width}.png` });
    await toggle.click();
    await expect(panel).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  }
});
