/*
 * Whether the operating system really encrypts what safeStorage is given. On Linux without a keyring
 * (no libsecret, no KWallet) Electron falls back to `basic_text`: a key compiled into Chromium, which
 * is plain text to anyone who can read the file. Quire remembers nothing there.
 */

export type LinuxStorageBackend =
  'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown';

export interface SecretBackendFacts {
  platform: NodeJS.Platform;
  /** safeStorage.isEncryptionAvailable() */
  encryptionAvailable: boolean;
  /** safeStorage.getSelectedStorageBackend(), Linux only. */
  linuxBackend?: LinuxStorageBackend;
}

const LINUX_KEYRINGS: ReadonlySet<LinuxStorageBackend> = new Set([
  'gnome_libsecret',
  'kwallet',
  'kwallet5',
  'kwallet6',
]);

export function osEncryptionProtects(facts: SecretBackendFacts): boolean {
  if (!facts.encryptionAvailable) return false;
  if (facts.platform !== 'linux') return true;
  return facts.linuxBackend !== undefined && LINUX_KEYRINGS.has(facts.linuxBackend);
}
