import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DocumentInfo, LibraryRoot } from '../../shared/domain/library';
import { readJsonOr, writeJsonAtomic } from '../common/atomicFile';

/** A document as the library hands it to ingestion: what the UI sees plus the content hash. */
const StoredDocument = DocumentInfo.extend({ contentHash: z.string().nullable().default(null) });
export type StoredDocument = z.infer<typeof StoredDocument>;

/**
 * What `library.json` holds: the folders the user added. Documents live in the index's `documents`
 * table, their one record.
 */
const StoredLibrary = z.object({ version: z.literal(2), roots: z.array(LibraryRoot) });
type StoredLibrary = z.infer<typeof StoredLibrary>;

/** The first format, which also listed every document; read once to move its documents to the index. */
const LibraryV1 = z.object({
  version: z.literal(1),
  roots: z.array(LibraryRoot),
  documents: z.array(StoredDocument),
});

export interface LoadedLibrary {
  roots: LibraryRoot[];
  /** Documents of a first-format file, still to be moved to the index; null once moved. */
  legacyDocuments: StoredDocument[] | null;
}

export class LibraryStore {
  private readonly file: string;
  /** What the file holds now, as last read or written: saving the same again writes nothing. */
  private saved: string | null = null;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'library.json');
  }

  /** A file that cannot be parsed is kept aside as `.corrupt` rather than silently dropped. */
  async load(): Promise<LoadedLibrary> {
    const empty: LoadedLibrary = { roots: [], legacyDocuments: null };
    let raw: unknown;
    try {
      raw = await readJsonOr(this.file, { version: 2, roots: [] } satisfies StoredLibrary);
    } catch {
      return empty;
    }
    const parsed = StoredLibrary.safeParse(raw);
    if (parsed.success) {
      this.saved = JSON.stringify(parsed.data);
      return { roots: parsed.data.roots, legacyDocuments: null };
    }
    const legacy = LibraryV1.safeParse(raw);
    if (legacy.success) return { roots: legacy.data.roots, legacyDocuments: legacy.data.documents };
    console.error(`quire: ${this.file} is not a library file; starting with an empty library.`);
    await writeJsonAtomic(`${this.file}.corrupt`, raw).catch(() => undefined);
    return empty;
  }

  /**
   * The folders as the writer last saved them, for a reader on the same data folder: nothing is
   * written (not even a `.corrupt` copy); null when the file cannot be read as a library now.
   */
  async readFolders(): Promise<LibraryRoot[] | null> {
    const raw: unknown = await readJsonOr(this.file, { version: 2, roots: [] }).catch(() => null);
    const parsed = z.object({ roots: z.array(LibraryRoot) }).safeParse(raw);
    return parsed.success ? parsed.data.roots : null;
  }

  /**
   * Ends the move from the first format once its documents are in the index: the old file is kept
   * beside as `library.v1.json`, and `library.json` then holds only the folders. A crash between the
   * two steps moves the documents again, which writes nothing the index already holds.
   */
  async retireFirstFormat(roots: LibraryRoot[]): Promise<void> {
    await copyFile(this.file, join(this.file, '..', 'library.v1.json'));
    await this.save(roots);
  }

  /** Writes only a change: a command that only reads leaves the file alone (and works on a full disk). */
  async save(roots: LibraryRoot[]): Promise<void> {
    const library = { version: 2, roots } satisfies StoredLibrary;
    const text = JSON.stringify(library);
    if (text === this.saved) return;
    await writeJsonAtomic(this.file, library);
    this.saved = text;
  }
}
