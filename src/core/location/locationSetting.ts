import { join } from 'node:path';
import { z } from 'zod';
import { QuireError } from '../../shared/errors';
import { readJsonOr } from '../common/atomicFile';
import { parseLibraryLocation, type LibraryLocation } from './libraryLocation';

/**
 * The app's setting of where the library lives (`<dataDir>/library-location.json`). It names the
 * location only: a file that carries a key is refused, since keys come from the AWS variables or a
 * profile, never from a settings file in plain text.
 */
const LocationSetting = z
  .object({
    uri: z.string().min(1),
    endpoint: z.string().url().nullable().optional(),
    region: z.string().min(1).nullable().optional(),
    profile: z.string().min(1).nullable().optional(),
    /** This machine indexes into the library (its one writer); every other desktop only reads. */
    writer: z.boolean().optional(),
  })
  .strict();

export function locationSettingFile(dataDir: string): string {
  return join(dataDir, 'library-location.json');
}

/** The saved library location, or null when the library is the local data folder (the default). */
export async function readLocationSetting(
  dataDir: string,
): Promise<{ location: LibraryLocation; writer: boolean } | null> {
  const file = locationSettingFile(dataDir);
  const raw = await readJsonOr<unknown>(file, null);
  if (raw === null) return null;
  const parsed = LocationSetting.safeParse(raw);
  if (!parsed.success)
    throw new QuireError(
      'invalid_input',
      `${file} must name only uri, endpoint, region, profile and writer (keys belong in the AWS variables or a profile).`,
    );
  return { location: parseLibraryLocation(parsed.data), writer: parsed.data.writer ?? false };
}
