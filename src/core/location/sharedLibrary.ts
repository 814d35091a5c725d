import { QuireError } from '../../shared/errors';
import type { AwsCredentials } from './awsSigning';
import { CommitTable } from './commitTable';
import {
  indexUri,
  resolveCredentials,
  storageOptions,
  withoutSecrets,
  type LibraryLocation,
} from './libraryLocation';
import { ObjectStore } from './objectStore';
import { objectLeaseSlot, tableLeaseSlot, WriterLease } from './writerLease';

/** A library location opened by this process: as its one writer (holding the lease) or as a reader. */
export interface SharedLibrary {
  location: LibraryLocation;
  writer: boolean;
  /** The index's LanceDB URI and storage options. */
  indexUri: string;
  storageOptions: Record<string, string>;
  /** Page images and OCR results under the location's prefix. */
  objects: ObjectStore;
  /** Releases the writer's lease (readers hold nothing). */
  dispose(): Promise<void>;
}

/**
 * Opens a library location. A writer takes the lease first, so a second writer is refused before it
 * touches a table; a reader checks that the store answers with these credentials, so a wrong key
 * is a clear error rather than a LanceDB trace.
 */
export async function openSharedLibrary(location: LibraryLocation, writer: boolean): Promise<SharedLibrary> {
  quietLanceWarnings(location);
  const credentials = await resolveCredentials(location);
  const objects = new ObjectStore(location, credentials);
  await guarded(credentials, () => objects.list('index/_none_'));
  let lease: WriterLease | null = null;
  if (writer) {
    const slot =
      location.scheme === 's3+ddb'
        ? tableLeaseSlot(new CommitTable(location, credentials), location.uri)
        : objectLeaseSlot(objects);
    lease = await guarded(credentials, () => WriterLease.take(slot, location.uri));
  }
  return {
    location,
    writer,
    indexUri: indexUri(location),
    storageOptions: storageOptions(location, credentials),
    objects,
    async dispose() {
      await lease?.release();
    },
  };
}

/**
 * LanceDB reports an unreachable store as a chain of SDK errors; the user is told which library
 * could not be reached and that the next request tries again.
 */
export function explainStoreFailure(location: LibraryLocation, message: string): string | null {
  if (!/Connection refused|tcp connect error|dispatch failure|timed out|dns error/i.test(message))
    return null;
  const why = /Connection refused/i.test(message) ? 'the connection was refused' : 'it did not answer';
  return `The library at ${location.uri} cannot be reached (${why}). Quire tries again on the next request.`;
}

async function guarded<T>(credentials: AwsCredentials, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof QuireError) throw error;
    throw new QuireError(
      'not_readable',
      withoutSecrets(error instanceof Error ? error.message : String(error), credentials),
    );
  }
}

/**
 * Lance logs a WARN about its manifest namespace on every open of an s3+ddb:// URI; it says nothing
 * the user can act on, so Quire's own errors are what reach the terminal.
 */
function quietLanceWarnings(location: LibraryLocation): void {
  if (location.scheme === 's3+ddb' && !process.env.LANCEDB_LOG) process.env.LANCEDB_LOG = 'error';
}
