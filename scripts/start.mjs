#!/usr/bin/env node
/**
 * `npm start`: the desktop app (`electron-vite preview`, which builds first). `npm install` does not
 * fetch Electron's binary (electron 45 downloads it apart, on first use); where it is missing this says
 * the one command that puts it in place, instead of electron-vite's "Electron uninstall" stack trace.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const INSTALL_ELECTRON = 'npx install-electron';

/** The binary electron-vite would start, or null when it is not on disk. */
function electronBinary(env = process.env) {
  // electron-vite takes this path as given.
  if (env.ELECTRON_EXEC_PATH) return existsSync(env.ELECTRON_EXEC_PATH) ? env.ELECTRON_EXEC_PATH : null;
  const packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8'));
  return existsSync(binary) ? binary : null;
}

if (!electronBinary()) {
  console.error(
    `Electron's binary is not installed. Run \`${INSTALL_ELECTRON}\` once (it downloads Electron for ` +
      'this machine into node_modules/electron), then `npm start` again.',
  );
  process.exit(1);
}
const result = spawnSync('npx', ['electron-vite', 'preview', ...process.argv.slice(2)], {
  stdio: 'inherit',
  // npx is a .cmd script on Windows, which only a shell runs.
  shell: process.platform === 'win32',
});
process.exit(result.status ?? 1);
