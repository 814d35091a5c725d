import { z } from 'zod';

/**
 * Where the library lives when it is not the local data folder: an S3-compatible location and its
 * options. It names no credential: keys come from the AWS variables or a named profile.
 */
export const LibraryLocationSetting = z
  .object({
    uri: z.string().trim().min(1).max(2048),
    endpoint: z.string().trim().url().max(2048).nullable(),
    region: z.string().trim().min(1).max(64).nullable(),
    profile: z.string().trim().min(1).max(128).nullable(),
    /** This machine indexes into the library (its one writer); every other desktop only reads. */
    writer: z.boolean(),
  })
  .strict();
export type LibraryLocationSetting = z.infer<typeof LibraryLocationSetting>;

export const LibraryLocationView = z.object({
  /** Where this running Quire keeps its library; null for the local data folder. */
  active: z.object({ uri: z.string(), writer: z.boolean() }).nullable(),
  /** What the next start uses; null for the local data folder. */
  saved: LibraryLocationSetting.nullable(),
  /** Set when a command-line `--library` chose the location, so the saved setting is not in use. */
  chosenByCommandLine: z.boolean(),
  /** The saved setting differs from what runs: it takes effect when Quire next starts. */
  restartNeeded: z.boolean(),
});
export type LibraryLocationView = z.infer<typeof LibraryLocationView>;
