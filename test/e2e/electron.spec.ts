import { cp, mkdtemp } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import { corpusDir, removeFolders, withoutCorpus } from '../helpers/shared';

/** The Electron binary is downloaded on first use; where that cannot happen the test says so. */
function electronBinary(): string | null {
  const require = createRequire(import.meta.url);
  // Without path.txt, requiring electron would start a download; no binary is installed then.
  const packageDir = dirname(require.resolve('electron/package.json'));
  if (!existsSync(join(packageDir, 'path.txt'))) return null;
  try {
    const path = require('electron') as unknown as string;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const mainEntry = join(import.meta.dirname, '..', '..', 'out', 'main', 'index.js');

test('the desktop app lists a folder added through the preload', async () => {
  if (!binary) {
    console.log(
      'Electron end-to-end skipped: no Electron binary is installed on this machine (`npx install-electron` puts it in place).',
    );
  }
  test.skip(!binary, 'no Electron binary is installed on this machine');
  test.skip(withoutCorpus('the Electron end-to-end test on corpus PDFs'));
  let userData: string | undefined;
  let folder: string | undefined;
  let app: ElectronApplication | undefined;
  try {
    userData = await mkdtemp(join(tmpdir(), 'quire-electron-data-'));
    folder = await mkdtemp(join(tmpdir(), 'quire-electron-library-'));
    await cp(join(corpusDir, 'pdfjs'), folder, { recursive: true });
    app = await electron.launch({
      executablePath: binary!,
      args: [mainEntry, `--user-data-dir=${userData}`],
      env: { ...process.env, QUIRE_USER_DATA: userData },
    });
    const window = await app.firstWindow();
    const isolated = await window.evaluate(() => typeof (globalThis as { require?: unknown }).require);
    expect(isolated).toBe('undefined');
    await window.getByTestId('folder-path-input').fill(folder);
    await window.getByTestId('add-folder-button').click();
    await expect(window.getByTestId('document-item')).toHaveCount(12);
    await window.screenshot({ path: 'test-results/e2e/electron.png' });
  } finally {
    try {
      await app?.close();
    } finally {
      await removeFolders(userData, folder);
    }
  }
});
