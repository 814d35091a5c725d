import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditElectronSecurity } from '../../scripts/security/audit';
import { tempDir } from '../helpers/shared';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('quire-audit-');
});
afterAll(() => dir.cleanup());

describe('the Electron security audit in npm test', () => {
  it('fails on an insecure window and says which checks found it', async () => {
    const app = join(dir.path, 'insecure');
    await mkdir(app);
    await writeFile(
      join(app, 'main.js'),
      `const { BrowserWindow, shell } = require('electron');
const win = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });
win.webContents.setWindowOpenHandler(({ url }) => { shell.openExternal(url); return { action: 'deny' }; });
`,
    );
    const result = await auditElectronSecurity(app);
    expect(result.ok).toBe(false);
    const failing = result.findings
      .filter((f) => f.severity === 'HIGH' || f.severity === 'MEDIUM')
      .map((f) => f.id);
    expect(failing).toEqual(
      expect.arrayContaining([
        'CONTEXT_ISOLATION_JS_CHECK',
        'SANDBOX_JS_CHECK',
        'OPEN_EXTERNAL_JS_CHECK',
        'AUXCLICK_JS_CHECK',
      ]),
    );
  });
});
