/**
 * The steps timeline under an answer: the live line says what the agent is doing, the timeline stays
 * closed until opened, and a step opens to show why it ran and with what.
 */
import { stream } from './agentEvents';
import { expect, test } from './componentTest';

test('the live line follows the agent and the timeline opens on its steps', async ({ page, openPanel }) => {
  const standIn = await openPanel({ panel: 'chat' });
  await page.getByRole('textbox', { name: 'Question' }).fill('How much did revenue grow?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();

  await stream(standIn, 'run-1', [
    {
      type: 'decision',
      tool: 'text_search',
      inputs: { query: 'revenue growth', k: 8, mode: 'hybrid' },
      reasoning: 'The question asks for a figure from the annual report.',
      end: false,
      source: 'model',
    },
  ]);
  const live = page.getByRole('status').filter({ hasText: 'Searching the text' });
  await expect(live).toContainText('Searching the text for “revenue growth”');

  const toggle = page.getByRole('button', { name: /Show steps/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('trace-step')).toHaveCount(0);
  await toggle.click();
  await expect(page.getByRole('button', { name: /Hide steps/ })).toHaveAttribute('aria-expanded', 'true');

  await stream(standIn, 'run-1', [
    {
      type: 'tool_result',
      tool: 'text_search',
      name: 'text_search',
      summary: 'Best: annual-report-2023.pdf p. 2',
      items: 4,
      ms: 120,
    },
  ]);
  const step = page.getByTestId('trace-step').filter({ hasText: 'Searched the text' });
  await expect(step).toContainText('Searched the text for “revenue growth”: 4 passages');
  await expect(page.getByRole('status').filter({ hasText: 'Searching the text' })).toHaveCount(0);

  const why = step.getByText('The question asks for a figure from the annual report.');
  await expect(why).toBeHidden();
  await step.getByText('Searched the text').click();
  await expect(why).toBeVisible();
  await expect(step).toContainText('Best: annual-report-2023.pdf p. 2');
  await step.getByText('Searched the text').click();
  await expect(why).toBeHidden();

  await page.getByRole('button', { name: /Hide steps/ }).click();
  await expect(page.getByTestId('trace-step')).toHaveCount(0);
});

test('a past run’s steps are fetched from the engine when its timeline is opened', async ({
  page,
  openPanel,
}) => {
  const standIn = await openPanel({ panel: 'chat' });
  await page.getByRole('textbox', { name: 'Question' }).fill('Who signed the minutes?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByTestId('turn')).toBeVisible();
  // No event streamed for this run: the stored trace is all there is.
  await standIn.respond('chat.trace', {
    value: [
      { type: 'status', runId: 'run-1', at: 1_000, message: 'Reading the minutes' },
      { type: 'complete', runId: 'run-1', at: 1_400, status: 'failed', ms: 400, error: 'The model stopped.' },
    ],
  });
  await page.getByRole('button', { name: /Show steps/ }).click();
  await expect.poll(() => standIn.calls('chat.trace')).toEqual([{ runId: 'run-1' }]);
  await expect(page.getByTestId('trace-step')).toHaveText([/Reading the minutes/, /The run failed/]);
});
