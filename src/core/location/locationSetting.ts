import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { LibraryLocationSetting, type LibraryLocationView } from '../../shared/domain/location';
import { QuireError } from '../../shared/errors';
import { readJsonOr, writeJsonAtomic } from '../common/atomicFile';
import { parseLibraryLocation, type LibraryLocation } from './libraryLocation';

/**
 * The app's setting of where the library lives (`<dataDir>/library-location.json`). It names the
 * location only: a file that carries a key is refused, since keys come from the AWS variables or a
 * profile, never from a settings file in plain text.
 */
const StoredSetting = z
  .object({
    uri: z.string().min(1),
    endpoint: z.string().url().nullable().optional(),
    region: z.string().min(1).nullable().optional(),
    profile: z.string().min(1).nullable().optional(),
    writer: z.boolean().optional(),
  })
  .strict();

export function locationSettingFile(dataDir: string): string {
  return join(dataDir, 'library-location.json');
}

/** The saved setting as written, or null when the library is the local data folder (the default). */
export async function readSavedLocation(dataDir: string): Promise<LibraryLocationSetting | null> {
  const file = locationSettingFile(dataDir);
  const raw = await readJsonOr<unknown>(file, null);
  if (raw === null) return null;
  const parsed = StoredSetting.safeParse(raw);
  if (!parsed.success)
    throw new QuireError(
      'invalid_input',
      `${file} must name only uri, endpoint, region, profile and writer (keys belong in the AWS variables or a profile).`,
    );
  const { uri, endpoint, region, profile, writer } = parsed.data;
  return {
    uri,
    endpoint: endpoint ?? null,
    region: region ?? null,
    profile: profile ?? null,
    writer: writer ?? false,
  };
}

/** The saved library location, or null when the library is the local data folder (the default). */
export async function readLocationSetting(
  dataDir: string,
): Promise<{ location: LibraryLocation; writer: boolean } | null> {
  const saved = await readSavedLocation(dataDir);
  return saved ? { location: parseLibraryLocation(saved), writer: saved.writer } : null;
}

/**
 * The Settings panel's view of the library location: what runs now, what the next start uses. The
 * location is chosen when the core starts, so a change waits for a restart (and says so).
 */
export class LocationSettings {
  constructor(
    private readonly dataDir: string,
    private readonly running: () => { active: LibraryLocationView['active']; chosenByCommandLine: boolean },
  ) {}

  async view(): Promise<LibraryLocationView> {
    return this.describe(await readSavedLocation(this.dataDir));
  }

  /** Saves a location (checked first: a malformed URI or a plain-http remote endpoint is refused), or null for the local folder. */
  async save(setting: LibraryLocationSetting | null): Promise<LibraryLocationView> {
    const file = locationSettingFile(this.dataDir);
    if (setting === null) {
      await rm(file, { force: true });
      return this.describe(null);
    }
    const checked = LibraryLocationSetting.parse(setting);
    parseLibraryLocation(checked);
    await writeJsonAtomic(file, checked);
    return this.describe(checked);
  }

  private describe(saved: LibraryLocationSetting | null): LibraryLocationView {
    const { active, chosenByCommandLine } = this.running();
    const sameAsRunning =
      saved === null
        ? active === null
        : active !== null && active.uri === saved.uri && active.writer === saved.writer;
    return { active, saved, chosenByCommandLine, restartNeeded: !chosenByCommandLine && !sameAsRunning };
  }
}
