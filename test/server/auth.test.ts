/** The token `quire serve` keeps in the data folder, so a restarted server keeps an open tab working. */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storedToken, TOKEN_FILE } from '../../src/core/server/auth';

const folders: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quire-token-'));
  folders.push(dir);
  return join(dir, 'data');
}
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('storedToken', () => {
  it('makes the token once, readable by this user only, and gives the same one at every start', () => {
    const dir = dataDir();
    const first = storedToken(dir);
    expect(first).toMatch(/^[\w-]{32}$/);
    const file = join(dir, TOKEN_FILE);
    if (process.platform !== 'win32') expect(modeOf(file)).toBe(0o600);
    expect(storedToken(dir)).toBe(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
  });

  it('replaces a file that holds no token', () => {
    const dir = dataDir();
    const first = storedToken(dir);
    writeFileSync(join(dir, TOKEN_FILE), 'not a token\n');
    const second = storedToken(dir);
    expect(second).not.toBe(first);
    expect(second).toMatch(/^[\w-]{32}$/);
    expect(storedToken(dir)).toBe(second);
  });

  it.skipIf(process.platform === 'win32')('narrows a token file someone made readable to others', () => {
    const dir = dataDir();
    const token = storedToken(dir);
    chmodSync(join(dir, TOKEN_FILE), 0o644);
    expect(storedToken(dir)).toBe(token);
    expect(modeOf(join(dir, TOKEN_FILE))).toBe(0o600);
  });
});
