import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startServe, type ServeProcess } from './serveProcess';
import { removeFolders } from '../helpers/shared';

let serve: ServeProcess;
let dataDir: string;

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'quire-e2e-updates-'));
  serve = await startServe(dataDir);
});

test.afterAll(async () => {
  try {
    await serve?.stop();
  } finally {
    await removeFolders(dataDir);
  }
});

test('browser mode says it does not update itself, and offers no update switch', async ({ page }) => {
  await page.goto(serve.url);
  await page.getByTestId('tab-settings').click();
  await expect(page.getByTestId('updates-unsupported')).toContainText('Only the installed desktop app');
  await expect(page.getByTestId('updates-enabled')).toHaveCount(0);
});
