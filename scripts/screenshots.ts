/**
 * `npm run screenshots [-- --out DIR]`: pictures of the app for the README, taken from the real app in
 * Chromium against `quire serve` over a few files of the test corpus. The model is the scripted
 * stand-in the browser tests use (an OpenAI-compatible server on 127.0.0.1), so every run shows the
 * same answer. Writes library, indexing, chat, viewer, models and settings PNGs (docs/screenshots by default);
 * library-narrow (a 360 px window, its library opened over the chat, a long Unicode file name and a
 * collection) and no-model (a question
 * asked with no model, and the set-up it offers, from a second server that has none).
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { corpusDir } from '../test/helpers/shared';
import { startScriptedAgent } from '../test/standins/scriptedAgent';
import { startServe } from '../test/e2e/serveProcess';

const FILES = [
  ['pdfjs', 'tracemonkey.pdf'],
  ['pdfjs', 'rotation.pdf'],
  ['office', 'lorem_ipsum.docx'],
  ['office', 'powerpoint_sample.pptx'],
] as const;

const decisions = [
  { tool: 'text_search', inputs: { query: 'trace-based just-in-time compilation', k: '5', mode: 'bm25' } },
  { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];
const answer =
  'TraceMonkey records the hot loops of a program as traces and compiles each trace to native code, ' +
  'using trace-based just-in-time compilation [1].';

/** A name of the kind real folders hold: long, unbroken, not only ASCII. */
const LONG_NAME = 'Überprüfung_der_Sicherheitsanweisungen_für_Laborgeräte_2024_überarbeitet_endgültig.pdf';

const CHROMIUM_PATHS = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];
const WAIT = { timeout: 180_000 };

async function shoot(page: Page, outDir: string, name: string): Promise<void> {
  // Let fonts and images settle so a picture never shows a half-drawn page.
  await page.evaluate('document.fonts.ready.then(() => true)');
  await page.screenshot({ path: join(outDir, `${name}.png`) });
  console.log(`wrote ${join(outDir, `${name}.png`)}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'docs/screenshots' } } });
  const outDir = resolve(values.out);
  await mkdir(outDir, { recursive: true });
  const executablePath = process.env.QUIRE_CHROMIUM ?? CHROMIUM_PATHS.find((path) => existsSync(path));
  const work = await mkdtemp(join(tmpdir(), 'quire-screenshots-'));
  const folder = join(work, 'Manuals');
  await mkdir(folder);
  for (const [dir, name] of FILES) await copyFile(join(corpusDir, dir, name), join(folder, name));
  await copyFile(join(corpusDir, 'pdfjs', 'rotation.pdf'), join(folder, LONG_NAME));

  const standIn = await startScriptedAgent(decisions, answer, { delayBetweenPiecesMs: 5 });
  const serve = await startServe(join(work, 'data'), ['--server', standIn.baseUrl]);
  const browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    await page.goto(serve.url);
    await page.getByTestId('folder-path-input').fill(folder);
    await page.getByTestId('add-folder-button').click();
    // Once the first file is in, the others are still being read: the progress has something to say.
    await page.locator('[data-testid="document-item"]').first().waitFor(WAIT);
    await page.getByTestId('indexing').waitFor(WAIT);
    await shoot(page, outDir, 'indexing');
    await page.locator('[data-testid="document-item"][data-state="indexed"]').nth(FILES.length).waitFor(WAIT);
    await page.getByTestId('role-row').filter({ hasText: 'scripted-chat' }).first().waitFor(WAIT);
    // Page images are drawn after the text: wait for them too, so no picture shows a half-drawn page.
    await page.getByTestId('pause-indexing').waitFor({ ...WAIT, state: 'detached' });
    await shoot(page, outDir, 'library');

    await page.getByTestId('question-input').fill('How does TraceMonkey compile hot loops?');
    await page.getByTestId('ask-button').click();
    await page.getByTestId('citation-marker').first().waitFor(WAIT);
    await page.getByTestId('answer-status').getByText('Verified').waitFor(WAIT);
    await page.getByTestId('trace-toggle').last().click();
    await shoot(page, outDir, 'chat');

    await page.getByTestId('citation-marker').first().click();
    await page.getByTestId('page-highlight').first().waitFor(WAIT);
    await page.getByTestId('text-layer').waitFor({ ...WAIT, state: 'attached' });
    await shoot(page, outDir, 'viewer');
    await page.keyboard.press('Escape');

    await page.getByTestId('tab-models').click();
    await shoot(page, outDir, 'models');
    await page.getByTestId('tab-settings').click();
    await shoot(page, outDir, 'settings');

    await page.getByTestId('collection-name-input').fill('Sicherheitsunterweisungen und Prüfprotokolle 2024');
    await page.getByTestId('collection-name-input').press('Enter');
    await page.getByTestId('collection-item').first().waitFor(WAIT);
    await page.setViewportSize({ width: 360, height: 800 });
    // A narrow window gives the chat its width; the header's toggle opens the library over it.
    await page.getByTestId('library-toggle').click();
    await page.locator('#library-panel').waitFor(WAIT);
    // The last file (the long name) and the collection under it.
    await page.getByTestId('collection-item').first().scrollIntoViewIfNeeded();
    await shoot(page, outDir, 'library-narrow');

    // A second server with no model at all: the question fails at once and offers the set-up.
    const bare = await startServe(join(work, 'data-without-models'));
    try {
      const fresh = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
      await fresh.goto(bare.url);
      await fresh.getByTestId('question-input').fill('What does the safety manual say about gloves?');
      await fresh.getByTestId('ask-button').click();
      await fresh.getByTestId('get-a-model').click(WAIT);
      await fresh.getByTestId('setup-role').first().waitFor(WAIT);
      await shoot(fresh, outDir, 'no-model');
    } finally {
      await bare.stop();
    }
  } finally {
    await browser.close();
    await serve.stop();
    await standIn.close();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
