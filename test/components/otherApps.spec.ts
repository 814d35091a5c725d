/**
 * Settings' "Other apps" section as a person uses it: the switch is off and shows nothing to paste;
 * turned on, it shows the stdio entry for the app's data folder and the HTTP address with its token,
 * each with a copy button; a listen error the engine reports is shown in its words.
 */
import { expect, test } from './componentTest';

test('turning the switch on shows both snippets, and each copies what it shows', async ({
  page,
  openPanel,
}) => {
  // The harness page is no secure context, so the page gets a clipboard that keeps what it is given.
  await page.addInitScript(() => {
    const kept: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (text: string) => void kept.push(text) },
    });
    (globalThis as unknown as { copied: string[] }).copied = kept;
  });
  const standIn = await openPanel({ panel: 'otherApps' });
  const toggle = page.getByRole('checkbox', { name: 'Let other apps on this computer use the library' });
  await expect(toggle).not.toBeChecked();
  await expect(page.getByTestId('mcp-stdio')).toHaveCount(0);
  await expect(page.getByTestId('mcp-http')).toHaveCount(0);

  await toggle.check();
  await expect.poll(() => standIn.calls('mcpSharing.setEnabled')).toEqual([{ enabled: true }]);
  const stdio = page.getByTestId('mcp-stdio');
  const entry = JSON.parse(await stdio.locator('pre').innerText()) as unknown;
  expect(entry).toEqual({
    mcpServers: { quire: { command: 'quire', args: ['mcp', '--data-dir', '/home/ada/.config/Quire'] } },
  });
  const http = page.getByTestId('mcp-http');
  const address = 'http://127.0.0.1:7421/mcp?token=Qx0-token-of-thirty-two-chars-_9';
  await expect(http.locator('pre')).toHaveText(address);

  await http.getByRole('button').click();
  await expect(http.getByRole('button')).toHaveText('Copied');
  await stdio.getByRole('button').click();
  await expect(stdio.getByRole('button')).toHaveText('Copied');
  const copied = await page.evaluate(() => (globalThis as unknown as { copied: string[] }).copied);
  expect(copied[0]).toBe(address);
  expect(JSON.parse(copied[1]!)).toEqual(entry);

  await toggle.uncheck();
  await expect
    .poll(async () => (await standIn.calls('mcpSharing.setEnabled')).at(-1))
    .toEqual({ enabled: false });
  await expect(page.getByTestId('mcp-http')).toHaveCount(0);
});

test('a port in use is shown in one line and the switch stays usable', async ({ page, openPanel }) => {
  const error =
    'Port 7421 is already in use by another program: other apps cannot reach the library until it is free.';
  await openPanel({
    panel: 'otherApps',
    answers: {
      'mcpSharing.status': {
        value: {
          enabled: true,
          unsupportedReason: null,
          address: null,
          token: null,
          dataDir: '/home/ada/.config/Quire',
          error,
        },
      },
    },
  });
  await expect(page.getByRole('alert')).toHaveText(error);
  await expect(page.getByTestId('mcp-http')).toHaveCount(0);
  // The stdio entry needs no port: `quire mcp` reads the library itself.
  await expect(page.getByTestId('mcp-stdio')).toHaveCount(1);
  await expect(page.getByRole('checkbox')).toBeChecked();
  await expect(page.getByRole('checkbox')).toBeEnabled();
});
