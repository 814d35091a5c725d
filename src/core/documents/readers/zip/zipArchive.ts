import { open as openZipFile, type Entry, type ZipFile } from 'yauzl';
import { QuireError } from '../../../../shared/errors';

/*
 * Office files, OpenDocument files and EPUBs are zip archives. Every one is read through here first:
 * entries are inflated as streams whose real sizes are checked against the sizes the archive declares
 * (yauzl stops a stream that produces more), and the declared total against a limit, so a zip bomb
 * fails with a clear error before any library inflates it into memory.
 */

export interface ZipLimits {
  /** Most bytes the archive may unpack to, all entries together. Default 256 MiB. */
  maxUnpackedBytes: number;
  /** Most entries the archive may hold. Default 20,000. */
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxUnpackedBytes: 256 * 1024 * 1024, maxEntries: 20_000 };

export interface ZipEntries {
  readonly names: readonly string[];
  /** An entry's bytes; undefined when the archive has no such entry or it was not read. */
  bytes(name: string): Buffer | undefined;
  /** An entry as UTF-8 text (a BOM is dropped). */
  text(name: string): string | undefined;
}

export interface ReadZipOptions {
  /** Which entries to keep in memory; every entry is still inflated to check its size. */
  keep?: (name: string) => boolean;
  limits?: Partial<ZipLimits>;
  signal?: AbortSignal;
  /** The format's name in messages, e.g. "Word document". */
  formatName: string;
}

/**
 * Checks the archive at `path` against the limits and returns the entries `keep` asks for. Throws
 * `unsupported` for a damaged archive, an encrypted one, or one past the limits.
 */
export async function readZip(path: string, options: ReadZipOptions): Promise<ZipEntries> {
  const limits = { ...DEFAULT_ZIP_LIMITS, ...options.limits };
  const zip = await openZip(path, options.formatName);
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new QuireError(
        'unsupported',
        `This ${options.formatName} holds ${zip.entryCount} files, more than the ${limits.maxEntries} Quire reads: it is not read.`,
      );
    }
    const entries = await listEntries(zip, options.formatName);
    const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    if (declared > limits.maxUnpackedBytes) throw tooLarge(options.formatName, declared, limits);
    const kept = new Map<string, Buffer>();
    for (const entry of entries) {
      options.signal?.throwIfAborted();
      if (entry.fileName.endsWith('/')) continue;
      if (entry.isEncrypted()) {
        throw new QuireError(
          'unsupported',
          `This ${options.formatName} is encrypted: remove its password and save it again.`,
        );
      }
      const keep = options.keep?.(entry.fileName) ?? true;
      const bytes = await inflate(zip, entry, keep, options.formatName);
      if (keep) kept.set(entry.fileName, bytes);
    }
    return {
      names: entries.map((entry) => entry.fileName),
      bytes: (name) => kept.get(name),
      text: (name) =>
        kept
          .get(name)
          ?.toString('utf8')
          .replace(/^\uFEFF/, ''),
    };
  } finally {
    zip.close();
  }
}

function tooLarge(formatName: string, bytes: number, limits: ZipLimits): QuireError {
  const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
  return new QuireError(
    'unsupported',
    `This ${formatName} unpacks to ${mb(bytes)}, more than the ${mb(limits.maxUnpackedBytes)} limit (a zip bomb, or a file too large to read): it is not read.`,
    { limitBytes: limits.maxUnpackedBytes },
  );
}

function damaged(formatName: string, error: unknown): QuireError {
  const reason = error instanceof Error ? error.message : String(error);
  return new QuireError('unsupported', `This ${formatName} is damaged and cannot be read (${reason}).`);
}

function openZip(path: string, formatName: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    openZipFile(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) {
        const code = (error as NodeJS.ErrnoException | null)?.code;
        if (code === 'ENOENT') reject(new QuireError('not_found', `The file is gone: ${path}`));
        else if (code === 'EACCES' || code === 'EPERM')
          reject(new QuireError('not_readable', `The file cannot be read: ${path} (${code})`));
        else reject(damaged(formatName, error));
        return;
      }
      resolve(zip);
    });
  });
}

function listEntries(zip: ZipFile, formatName: string): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (error) => reject(damaged(formatName, error)));
    zip.readEntry();
  });
}

function inflate(zip: ZipFile, entry: Entry, keep: boolean, formatName: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) {
        reject(damaged(formatName, error));
        return;
      }
      const parts: Buffer[] = [];
      stream.on('data', (part: Buffer) => {
        if (keep) parts.push(part);
      });
      stream.once('end', () => resolve(Buffer.concat(parts)));
      stream.once('error', (streamError) => {
        // yauzl stops an entry that produces more bytes than its header declares: a zip bomb's trick.
        if (/too many bytes/.test(streamError.message)) {
          reject(
            new QuireError(
              'unsupported',
              `This ${formatName} unpacks to more than it declares (a zip bomb, or a damaged file): it is not read.`,
            ),
          );
        } else reject(damaged(formatName, streamError));
      });
    });
  });
}
