import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import { writeJsonAtomic, type SecretStore } from '../core/desktop';
import { osEncryptionProtects } from './secretBackend';

/**
 * Secrets encrypted by the operating system's keychain (safeStorage) and kept, encrypted, in one file
 * in the data folder. Where the OS offers no real encryption (none, or Linux's `basic_text`), nothing
 * is remembered, and a file written that way earlier is removed.
 */
export function createSafeStorageSecrets(dataDir: string): SecretStore | null {
  const file = join(dataDir, 'secrets.json');
  const protects = osEncryptionProtects({
    platform: process.platform,
    encryptionAvailable: safeStorage.isEncryptionAvailable(),
    ...(process.platform === 'linux' ? { linuxBackend: safeStorage.getSelectedStorageBackend() } : {}),
  });
  if (!protects) {
    void rm(file, { force: true }).catch(() => undefined);
    return null;
  }
  const load = async (): Promise<Record<string, string>> => {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  };
  return {
    async get(key) {
      const sealed = (await load())[key];
      return sealed ? safeStorage.decryptString(Buffer.from(sealed, 'base64')) : null;
    },
    async set(key, value) {
      const all = await load();
      all[key] = safeStorage.encryptString(value).toString('base64');
      await writeJsonAtomic(file, all);
    },
    async delete(key) {
      const all = await load();
      if (!(key in all)) return;
      delete all[key];
      await writeJsonAtomic(file, all);
    },
  };
}
