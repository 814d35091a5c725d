import type { Core } from '../../src/core/createCore';

/**
 * Waits until the library has walked every folder and ingestion has read every file it found: a
 * folder walk can find more files after ingestion went idle, so both are awaited until neither moves.
 */
export async function untilIndexed(core: Pick<Core, 'library' | 'ingestion'>): Promise<void> {
  do {
    await core.library.whenIdle();
    await core.ingestion.whenIdle();
  } while (core.library.snapshot().scanning);
}
