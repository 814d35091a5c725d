import { z } from 'zod';

/** Where the updater is: off until the user turns update checks on, and it never downloads unasked. */
export const UpdatePhase = z.enum([
  'off',
  'idle',
  'checking',
  'up-to-date',
  'available',
  'downloading',
  'downloaded',
  'error',
]);
export type UpdatePhase = z.infer<typeof UpdatePhase>;

export const UpdateOffer = z.object({
  version: z.string().max(100),
  releaseName: z.string().max(500).nullable(),
  releaseNotes: z.string().max(50_000).nullable(),
  releaseDate: z.string().max(100).nullable(),
});
export type UpdateOffer = z.infer<typeof UpdateOffer>;

export const UpdateStatus = z.object({
  /** The user's setting; false until they turn update checks on. */
  enabled: z.boolean(),
  /** Why this copy of Quire cannot update itself (the CLI, browser mode, a development build); null if it can. */
  unsupportedReason: z.string().nullable(),
  phase: UpdatePhase,
  /** The running version; null where it is not an installed app. */
  currentVersion: z.string().nullable(),
  /** The newer version the last check found. */
  offer: UpdateOffer.nullable(),
  /** 0-100 while downloading. */
  percent: z.number().min(0).max(100).nullable(),
  /** What went wrong in the last check or download, in words. */
  error: z.string().nullable(),
  /** ISO time of the last finished check. */
  checkedAt: z.string().nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;
