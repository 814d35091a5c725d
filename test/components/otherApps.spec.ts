/**
 * Settings' "Other apps" section as a person uses it: the switch is off and shows nothing to paste;
 * turned on, it shows the MCP address with its token and a button that copies it; a listen error the
 * engine reports is shown in its words.
 */
import { expect, test } from './componentTest';

test('turning the switch on shows the address with its token, and Copy copies it', async ({
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
  await expect(page.getByTestId('mcp-http')).toHaveCount(0);

  await toggle.check();
  await expect.poll(() => standIn.calls('mcpSharing.setEnabled')).toEqual([{ enabled: true }]);
  const http = page.getByTestId('mcp-http');
  const address = 'http://127.0.0.1:7421/mcp?token=Qx0-token-of-thirty-two-chars-_9';
  await expect(http.locator('pre')).toHaveText(address);

  await http.getByRole('button').click();
  await expect(http.getByRole('button')).toHaveText('Copied');
  const copied = await page.evaluate(() => (globalThis as unknown as { copied: string[] }).copied);
  expect(copied).toEqual([address]);

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
        value: { enabled: true, unsupportedReason: null, address: null, token: null, error },
      },
    },
  });
  await expect(page.getByRole('alert')).toHaveText(error);
  await expect(page.getByTestId('mcp-http')).toHaveCount(0);
  await expect(page.getByRole('checkbox')).toBeChecked();
  await expect(page.getByRole('checkbox')).toBeEnabled();
});
