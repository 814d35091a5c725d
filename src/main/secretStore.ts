import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import { writeJsonAtomic } from '../core/desktop';
import type { SecretStore } from '../core/desktop';

/**
 * Secrets encrypted by the operating system's keychain (safeStorage) and kept, encrypted, in one file
 * in the data folder. Where the OS offers no encryption, nothing is remembered.
 */
export function createSafeStorageSecrets(dataDir: string): SecretStore | null {
  if (!safeStorage.isEncryptionAvailable()) return null;
  const file = join(dataDir, 'secrets.json');
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
