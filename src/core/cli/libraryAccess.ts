import { stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * How a command that only reads opens the data folder: as a reader once a library is there, so that it
 * runs beside the app or `quire serve` and writes nothing. A folder with no library yet has no writer
 * to stay clear of: the command opens it as before (taking the writer lock), and finds it empty.
 */
export async function readOnlyIfLibrary(dataDir: string): Promise<{ readOnly: boolean }> {
  const found = await stat(join(dataDir, 'index')).then(
    (info) => info.isDirectory(),
    () => false,
  );
  return { readOnly: found };
}

/** What a command that writes the data folder calls itself, as a second writer is told. */
export function commandWriter(command: string): { writerName: string } {
  return { writerName: `\`quire ${command}\`` };
}
