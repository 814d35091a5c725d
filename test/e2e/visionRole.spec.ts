import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { writeTinyGguf } from '../helpers/tinyModel';
import { buildTinyProjector, writeTinyProjector } from '../helpers/tinyProjector';
import { startServe, type ServeProcess } from './serveProcess';
import { removeFolders } from '../helpers/shared';

/**
 * The Models panel says where the vision model runs: `quire serve --vision-model --vision-projector`
 * with the project's tiny model and projector and no server offering a vision model, then the same
 * with a projector cut short, which is refused with the file and the reason before anything loads it.
 */
let dir: string;
const serves: ServeProcess[] = [];

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-e2e-vision-'));
  await writeTinyGguf(join(dir, 'tiny.gguf'));
  await writeTinyProjector(join(dir, 'mmproj-tiny.gguf'));
  await writeFile(join(dir, 'mmproj-cut.gguf'), buildTinyProjector().subarray(0, 40_000));
});

test.afterAll(async () => {
  try {
    await Promise.all(serves.map((serve) => serve.stop()));
  } finally {
    await removeFolders(dir);
  }
});

async function serveWith(projector: string): Promise<ServeProcess> {
  const dataDir = join(dir, `data-${serves.length}`);
  const serve = await startServe(
    dataDir,
    ['--vision-model', join(dir, 'tiny.gguf'), '--vision-projector', join(dir, projector)],
    // Only the files given: no Ollama or LM Studio on this machine may take the role.
    { OLLAMA_HOST: 'http://127.0.0.1:9' },
  );
  serves.push(serve);
  return serve;
}

test('the vision row says the model runs in-process, in its own process', async ({ page }) => {
  const serve = await serveWith('mmproj-tiny.gguf');
  await page.goto(serve.url);
  const row = page.locator('[data-testid="role-row"][data-role="see"]');
  await expect(row).toContainText('llama.cpp', { timeout: 30_000 });
  await expect(row.getByTestId('role-where')).toHaveText(
    'In-process: llama.cpp with image input, in its own process on this computer',
  );
  await expect(row).toContainText('mmproj-tiny.gguf');
  await row.screenshot({ path: 'test-results/e2e/vision-role-in-process.png' });
});

test('a truncated projector is shown as unusable, with the file and the reason', async ({ page }) => {
  const serve = await serveWith('mmproj-cut.gguf');
  await page.goto(serve.url);
  const row = page.locator('[data-testid="role-row"][data-role="see"]');
  await expect(row).toContainText(/mmproj-cut\.gguf cannot be used: it is truncated/, { timeout: 30_000 });
  await expect(row).toContainText('Not set up');
});
