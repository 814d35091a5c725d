/**
 * The chat panel as a person uses it: typing and sending a question, the answer streaming in, Stop,
 * and a citation opening its page in the viewer. The engine is the harness's stand-in.
 */
import type { Citation } from '../../src/shared/domain/agent';
import type { SetupProposal } from '../../src/shared/domain/models';
import { stream } from './agentEvents';
import { expect, test } from './componentTest';

const CITATION: Citation = {
  marker: 1,
  documentId: 'doc-annual',
  path: '/home/ana/Reports/annual-report-2023.pdf',
  page: 2,
  chunkId: 'chunk-7',
  snippet: 'Revenue grew 2% over the year.',
  boxes: [{ x: 60, y: 100, width: 260, height: 20 }],
};

test('a typed question is sent with Enter and its answer streams in under it', async ({
  page,
  openPanel,
}) => {
  const standIn = await openPanel({ panel: 'chat' });
  const question = page.getByRole('textbox', { name: 'Question' });
  const ask = page.getByRole('button', { name: 'Ask', exact: true });
  await expect(ask).toBeDisabled();

  await question.fill('How much did revenue grow?');
  await expect(ask).toBeEnabled();
  await question.press('Enter');

  await expect
    .poll(() => standIn.calls('chat.ask'))
    .toEqual([expect.objectContaining({ question: 'How much did revenue grow?' })]);
  const turn = page.getByTestId('turn');
  await expect(turn).toContainText('How much did revenue grow?');
  await expect(question).toHaveValue('');

  await stream(standIn, 'run-1', [
    { type: 'token', text: 'Revenue grew ', attempt: 0 },
    { type: 'token', text: 'by 2%.', attempt: 0 },
  ]);
  await expect(turn.getByTestId('answer')).toContainText('Revenue grew by 2%.');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();

  await stream(standIn, 'run-1', [
    { type: 'final', answer: 'Revenue grew by 2% [1].', citations: [CITATION], insufficiencies: [] },
    { type: 'complete', status: 'answered', ms: 900, error: null },
  ]);
  await expect(turn).toContainText('Verified');
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(ask).toBeVisible();
});

test('a question the engine refuses keeps its text and says why', async ({ page, openPanel }) => {
  await openPanel({
    panel: 'chat',
    answers: {
      'chat.ask': { error: { code: 'model_unavailable', message: 'No model can answer: set one up first.' } },
    },
  });
  const question = page.getByRole('textbox', { name: 'Question' });
  await question.fill('How much did revenue grow?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('No model can answer: set one up first.');
  await expect(question).toHaveValue('How much did revenue grow?');
  await expect(page.getByTestId('turn')).toHaveCount(0);
});

test('Stop cancels the running answer and says it stopped', async ({ page, openPanel }) => {
  const standIn = await openPanel({ panel: 'chat' });
  await page.getByRole('textbox', { name: 'Question' }).fill('Summarise the safety manual');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await stream(standIn, 'run-1', [{ type: 'token', text: 'The manual covers', attempt: 0 }]);

  await standIn.hold('chat.cancel');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByRole('button', { name: 'Stopping…' })).toBeDisabled();
  expect(await standIn.calls('chat.cancel')).toEqual([{ runId: 'run-1' }]);

  await standIn.release('chat.cancel');
  await stream(standIn, 'run-1', [{ type: 'complete', status: 'cancelled', ms: 300, error: null }]);
  const turn = page.getByTestId('turn');
  await expect(turn).toContainText('Stopped before the answer was finished.');
  await expect(turn).toContainText('The manual covers');
  await expect(page.getByRole('button', { name: 'Ask', exact: true })).toBeVisible();
});

test('selecting a citation opens its page in the viewer with the passage highlighted', async ({
  page,
  openPanel,
}) => {
  const standIn = await openPanel({ panel: 'chat' });
  await page.getByRole('textbox', { name: 'Question' }).fill('How much did revenue grow?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await stream(standIn, 'run-1', [
    { type: 'token', text: 'Revenue grew by 2% [1].', attempt: 0 },
    { type: 'citation', citation: CITATION },
    { type: 'final', answer: 'Revenue grew by 2% [1].', citations: [CITATION], insufficiencies: [] },
    { type: 'complete', status: 'answered', ms: 900, error: null },
  ]);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('button', { name: /annual-report-2023\.pdf.*page 2/ }).click();

  const viewer = page.getByRole('dialog', { name: 'annual-report-2023.pdf, page 2' });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('img', { name: 'Page 2 of annual-report-2023.pdf' })).toBeVisible();
  await expect(viewer.getByTestId('page-highlight').first()).toBeVisible();
  expect(await standIn.calls('pages.get')).toContainEqual({
    documentId: 'doc-annual',
    page: 2,
    size: 'full',
  });
});

test('a question that fails for want of a model offers the set-up in place', async ({ page, openPanel }) => {
  const missing = (role: 'decide' | 'answer') => ({
    role,
    provider: null,
    endpoint: null,
    model: null,
    reason: 'No model server is running and no chat model is set up: run `quire models setup`.',
  });
  const proposal: SetupProposal = {
    machine: {
      totalMemoryBytes: 16e9,
      unifiedMemory: false,
      appleSilicon: false,
      acceleration: 'cpu',
      freeDiskBytes: 200e9,
      modelsDir: '/home/ana/.quire/models',
    },
    found: { servers: [], ollamaModels: [], modelFiles: [] },
    roles: (['decide', 'answer'] as const).map((role) => ({
      role,
      modelId: 'qwen3-4b',
      label: 'Qwen3 4B',
      source: 'download',
      ollamaModel: null,
      server: null,
      files: [],
      companionFiles: [],
      downloadBytes: 2.5e9,
      memoryBytes: 3.1e9,
      licence: 'Apache-2.0',
      quality: 'a quality line',
      reason: 'fits this machine',
      runtimeReady: true,
    })),
    totals: { downloadBytes: 2.5e9, memoryBytes: 3.1e9, peakMemoryBytes: 3.1e9, fitsOnDisk: true },
    notes: [],
  };
  const standIn = await openPanel({
    panel: 'chat',
    answers: {
      'models.status': {
        value: {
          roles: [missing('decide'), missing('answer')],
          servers: [],
          downloads: [],
          memory: {
            totalBytes: 16e9,
            availableBytes: 9e9,
            unifiedMemory: false,
            appHeadroomBytes: 1e9,
            entries: [],
            freeForModelsBytes: 8e9,
            notes: [],
          },
        },
      },
      'models.recommend': { value: proposal },
    },
  });
  await page.getByRole('textbox', { name: 'Question' }).fill('How much did revenue grow?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await stream(standIn, 'run-1', [
    { type: 'complete', status: 'failed', ms: 40, error: 'No model is configured to write answers.' },
  ]);
  const turn = page.getByTestId('turn');
  await expect(turn).toContainText('No model is configured to write answers.');
  await turn.getByRole('button', { name: 'Get a model' }).click();
  const card = turn.getByTestId('setup-card');
  await expect(card.getByTestId('setup-role')).toHaveCount(1);
  await expect(card.getByTestId('setup-total')).toContainText('2.5 GB to download');
  await expect(card.getByTestId('setup-start')).toHaveText('Download and set up');
  await expect(card).not.toContainText('`');
});
