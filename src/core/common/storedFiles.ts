/**
 * Files kept beside the index in a shared library (page images, OCR results), by path relative to
 * one folder of it. The local folder stays the working copy (the writer's output, a reader's cache);
 * this is where every other machine finds them. The stores below implement it; `core/location` says where.
 */
export interface StoredFiles {
  upload(relativePath: string, bytes: Uint8Array): Promise<void>;
  /** The file's bytes, or null when the library has none. */
  download(relativePath: string): Promise<Uint8Array | null>;
  /** Deletes every file under a folder (one document's content). */
  removeFolder(relativeFolder: string): Promise<void>;
}
