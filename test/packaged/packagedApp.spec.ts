/*
 * The installed app, end to end: the binary electron-builder packed (asar, unpacked native modules,
 * fuses) started the way a user starts it. It adds a folder, indexes it, searches, asks a question
 * whose citation opens the page, and quits. Run by the installers workflow on each platform with
 * QUIRE_PACKAGED_APP naming the packed executable; not part of `npm test` (no Electron binary here).
 *
 * The folder holds the sample PDFs the test writes, so it runs where shared/corpus is not (CI). The
 * model is the scripted OpenAI-compatible stand-in, added through the Models panel as a user would;
 * a second run loads the tiny GGUF in-process, which the packed app hosts in a utility process.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import type { QuireApi } from '../../src/shared/ipc/contract';
import { writeSamplePdfs } from '../helpers/samplePdfs';
import { writeTinyGguf } from '../helpers/tinyModel';
import type { OpenAIStandIn } from '../standins/openaiStandIn';
import { startScriptedAgent } from '../standins/scriptedAgent';

const executablePath = process.env.QUIRE_PACKAGED_APP;

const decisions = [
  { tool: 'text_search', inputs: { query: 'heliotrope calibration', k: '5', mode: 'bm25' } },
  { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];
const answer = 'The heliotrope calibration was repeated every morning [1].';

let standIn: OpenAIStandIn;
let userData: string;
let folder: string;

test.beforeAll(async () => {
  if (!executablePath) {
    throw new Error('Set QUIRE_PACKAGED_APP to the packed app executable (electron-builder --dir output).');
  }
  standIn = await startScriptedAgent(decisions, answer);
  userData = await mkdtemp(join(tmpdir(), 'quire-packaged-data-'));
  folder = await mkdtemp(join(tmpdir(), 'quire-packaged-library-'));
  await writeSamplePdfs(folder);
});

test.afterAll(async () => {
  await standIn?.close();
  if (userData) await rm(userData, { recursive: true, force: true });
  if (folder) await rm(folder, { recursive: true, force: true });
});

test('the packaged app indexes a folder, searches, opens a cited page and quits cleanly', async () => {
  const launchedAt = performance.now();
  const app: ElectronApplication = await electron.launch({
    executablePath: executablePath!,
    env: { ...process.env, QUIRE_USER_DATA: userData },
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    app.process().once('exit', (code, signal) => resolve({ code, signal })),
  );
  const window = await app.firstWindow();
  await expect(window.getByTestId('library-empty')).toBeVisible({ timeout: 60_000 });
  const firstStartMs = Math.round(performance.now() - launchedAt);
  console.log(`First start of the packaged app: ${firstStartMs} ms to an interactive window.`);

  expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');

  await window.getByTestId('folder-path-input').fill(folder);
  await window.getByTestId('add-folder-button').click();
  await expect(window.locator('[data-testid="document-item"][data-state="indexed"]')).toHaveCount(3, {
    timeout: 120_000,
  });

  // The contract call the agent's text_search makes, through the preload and IPC of the packed app.
  const hits = await window.evaluate(() =>
    (window as unknown as { quire: QuireApi }).quire['search.query']({
      query: 'heliotrope calibration',
      k: 3,
    }),
  );
  expect(hits.ok).toBe(true);
  const best = hits.ok ? hits.value[0] : undefined;
  expect(best?.path).toContain('field survey.pdf');
  expect(best?.page).toBe(2);

  await window.getByTestId('server-address-input').fill(standIn.baseUrl);
  await window.getByRole('button', { name: 'Add server' }).click();
  await expect(window.getByTestId('role-row').filter({ hasText: 'scripted-chat' }).first()).toBeVisible({
    timeout: 30_000,
  });
  await window.getByTestId('question-input').fill('How often was the heliotrope calibrated?');
  await window.getByTestId('ask-button').click();
  await expect(window.getByTestId('answer').last()).toContainText('repeated every morning', {
    timeout: 60_000,
  });
  const chip = window.getByTestId('citation-chip').first();
  await expect(chip).toContainText('field survey.pdf');
  await chip.click();
  await expect(window.getByTestId('page-viewer')).toBeVisible();
  await expect(window.getByTestId('page-image')).toBeVisible({ timeout: 30_000 });
  await expect(window.getByTestId('page-number')).toContainText(/\b2\b/);
  await window.screenshot({ path: 'test-results/packaged/cited-page.png' });

  await app.close();
  expect(await exited).toEqual({ code: 0, signal: null });
  await mkdir('test-results/packaged', { recursive: true });
  await writeFile(
    'test-results/packaged/first-start.json',
    JSON.stringify({ platform: process.platform, arch: process.arch, firstStartMs }, null, 2),
  );
});

test('the packaged app loads a local GGUF in its model host and answers with it', async () => {
  const modelPath = join(userData, 'tiny.gguf');
  await writeTinyGguf(modelPath, { seed: 5 });
  const app = await electron.launch({
    executablePath: executablePath!,
    env: { ...process.env, QUIRE_USER_DATA: userData, QUIRE_MODEL: modelPath },
  });
  try {
    const window = await app.firstWindow();
    // The library indexed by the first test is still there: the data folder persisted.
    await expect(window.locator('[data-testid="document-item"][data-state="indexed"]')).toHaveCount(3, {
      timeout: 60_000,
    });
    await window.getByTestId('question-input').fill('What does the maintenance manual say about seals?');
    await window.getByTestId('ask-button').click();
    // A random-weight model says nothing sensible; what matters is that the run ends with an answer.
    await expect(window.getByTestId('answer').last()).toBeVisible({ timeout: 120_000 });
    const budget = await window.evaluate(() =>
      (window as unknown as { quire: QuireApi }).quire['memory.budget']({}),
    );
    expect(
      budget.ok && budget.value.entries.some((entry) => entry.loaded && entry.id.includes('tiny.gguf')),
    ).toBe(true);
  } finally {
    await app.close();
  }
});
