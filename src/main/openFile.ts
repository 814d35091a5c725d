import { shell } from 'electron';
import { QuireError } from '../shared/errors';

/**
 * Opens a file with the system's default app. shell.openPath takes the path as data, never as a
 * command line; it answers with an error message instead of throwing.
 */
export async function openFileInSystemViewer(path: string): Promise<void> {
  const problem = await shell.openPath(path);
  if (problem) throw new QuireError('unsupported', `The system could not open the file: ${problem}`);
}
