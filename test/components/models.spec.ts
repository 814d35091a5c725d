/**
 * The models panel as a person uses it: each role says which model serves it, or that none does and
 * why; a role can be pinned to a served model; "Look again" asks the engine to look for servers again.
 */
import { expect, test } from './componentTest';

const SERVER = 'http://127.0.0.1:11434';

test('each role shows its model and provider, or that it is not set up and why', async ({
  page,
  openPanel,
}) => {
  await openPanel({ panel: 'models' });
  const decide = page.getByTestId('role-row').filter({ hasText: 'Deciding the next step' });
  await expect(decide).toContainText('Ollama');
  await expect(decide.getByTestId('role-model')).toHaveText('qwen3:8b');

  const see = page.getByTestId('role-row').filter({ hasText: 'Reading page images' });
  await expect(see).toContainText('Not set up');
  await expect(see).toContainText('No vision model: charts and scanned pages are read by OCR only.');
  await expect(see.getByTestId('role-model')).toHaveCount(0);
});

test('choosing a served model for a role sends the choice and keeps it selected', async ({
  page,
  openPanel,
}) => {
  const standIn = await openPanel({ panel: 'models' });
  const choice = page.getByRole('combobox', { name: 'Model for Writing answers' });
  await expect(choice).toHaveValue('');
  await choice.selectOption({ label: `llama3.2:3b — ${SERVER}` });

  await expect
    .poll(() => standIn.calls('models.chooseRole'))
    .toEqual([{ role: 'answer', choice: { model: 'llama3.2:3b', endpoint: SERVER } }]);
  await expect(choice).toHaveValue(`${SERVER}|llama3.2:3b`);

  await choice.selectOption({ label: 'Automatic' });
  await expect
    .poll(async () => (await standIn.calls('models.chooseRole')).at(-1))
    .toEqual({
      role: 'answer',
      choice: null,
    });
  await expect(choice).toHaveValue('');
});

test('a choice the engine refuses is shown beside the role', async ({ page, openPanel }) => {
  await openPanel({
    panel: 'models',
    answers: {
      'models.chooseRole': {
        error: { code: 'model_unavailable', message: 'llama3.2:3b is not on that server.' },
      },
    },
  });
  const row = page.getByTestId('role-row').filter({ hasText: 'Writing answers' });
  await row.getByRole('combobox').selectOption({ label: `llama3.2:3b — ${SERVER}` });
  await expect(row.getByRole('alert')).toContainText('llama3.2:3b is not on that server.');
});

test('Look again asks the engine and shows the roles it found', async ({ page, openPanel }) => {
  const standIn = await openPanel({ panel: 'models' });
  const see = page.getByTestId('role-row').filter({ hasText: 'Reading page images' });
  await expect(see).toContainText('Not set up');

  await standIn.hold('models.refresh');
  await standIn.respond('models.refresh', {
    value: {
      roles: [
        {
          role: 'see',
          provider: 'ollama',
          endpoint: SERVER,
          model: 'qwen2.5vl:7b',
          reason: 'Served by Ollama on this machine.',
        },
      ],
      servers: [{ kind: 'ollama', endpoint: SERVER, reachable: true, models: ['qwen2.5vl:7b'], error: null }],
      downloads: [],
      unusableFiles: [],
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
  });
  await page.getByRole('button', { name: 'Look again' }).click();
  await expect(page.getByRole('button', { name: 'Looking…' })).toBeDisabled();
  await standIn.release('models.refresh');
  await expect(page.getByRole('button', { name: 'Look again' })).toBeEnabled();
  await expect(see).toContainText('Ollama');
  await expect(see.getByTestId('role-model')).toHaveText('qwen2.5vl:7b');
});
