/*
 * The real app (`quire serve`) over a German leaflet from the corpus, with an OpenAI-compatible
 * stand-in that streams every reply (SSE): the library shows the document's language, and an English
 * question shows in its steps that the German translation was searched too.
 */
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { corpusDir, removeFolders, withoutCorpus } from '../helpers/shared';
import { startOpenAIStandIn, type OpenAIStandIn } from '../standins/openaiStandIn';
import { scriptedReplies } from '../standins/scriptedAgent';
import { startServe, type ServeProcess } from './serveProcess';

const TRANSLATION = 'Welche Orte versorgt das Erdgas zuverlässig?';
const decisions = [
  { tool: 'text_search', inputs: { query: 'natural gas towns', k: '5', mode: 'bm25' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];
const answer = 'The gas offer is for three towns [1].';

let serve: ServeProcess;
let standIn: OpenAIStandIn;
let dataDir: string;
let folder: string;

test.beforeAll(async () => {
  test.skip(withoutCorpus('the other-languages end-to-end test on a corpus PDF'));
  const script = scriptedReplies(decisions, answer);
  standIn = await startOpenAIStandIn([{ id: 'scripted-chat', kind: 'chat' }], {
    reply: (body) =>
      JSON.stringify(body.response_format ?? null).includes('"translation"')
        ? (JSON.stringify({ translation: TRANSLATION }).match(/.{1,6}/gsu) ?? [])
        : script(body.response_format),
    delayBetweenPiecesMs: 10,
  });
  dataDir = await mkdtemp(join(tmpdir(), 'quire-e2e-languages-data-'));
  folder = await mkdtemp(join(tmpdir(), 'quire-e2e-languages-library-'));
  await copyFile(join(corpusDir, 'pdfjs', 'bug1795263.pdf'), join(folder, 'erdgas.pdf'));
  serve = await startServe(dataDir, ['--server', standIn.baseUrl]);
});

test.afterAll(async () => {
  try {
    await serve?.stop();
    await standIn?.close();
  } finally {
    await removeFolders(dataDir, folder);
  }
});

test('an English question about a German document also searches its German translation, and says so', async ({
  page,
}) => {
  await page.goto(serve.url);
  await page.getByTestId('folder-path-input').fill(folder);
  await page.getByTestId('add-folder-button').click();
  const item = page.locator('[data-testid="document-item"][data-state="indexed"]');
  await expect(item).toHaveCount(1, { timeout: 120_000 });
  await expect(item.getByTestId('document-language')).toHaveText('German');
  await expect(page.getByTestId('role-row').filter({ hasText: 'scripted-chat' }).first()).toBeVisible({
    timeout: 30_000,
  });

  await page.getByTestId('question-input').fill('Which towns is the natural gas offer available in?');
  await page.getByTestId('ask-button').click();
  await expect(page.getByTestId('answer').last()).toContainText('three towns', { timeout: 60_000 });
  const turn = page.getByTestId('turn').last();
  await turn.getByTestId('trace-toggle').click();
  await expect(turn.getByTestId('trace')).toContainText(`Searched also in German: "${TRANSLATION}"`);

  const translations = standIn
    .bodiesAt('/v1/chat/completions')
    .filter((body) => JSON.stringify(body.response_format ?? null).includes('"translation"'));
  expect(translations).toHaveLength(1);
  expect(translations[0]!.stream).toBe(true);
});
