/*
 * The C allocator's side of giving memory back, on Linux with glibc (elsewhere every call here does
 * nothing). Memory that native code frees (LanceDB, libvips, the readers' buffers) stays with glibc:
 * its per-thread arenas keep freed blocks, and once a large block has been freed glibc raises its mmap
 * and trim thresholds (up to 32 and 64 MB), so later large blocks come from arenas whose free tops it
 * never shrinks. On the budget bench, 490 of the 540 MB the arenas held at idle were free blocks.
 * Fixed thresholds give each large block a mapping of its own, returned when it is freed, and
 * malloc_trim hands back the free pages inside the arenas.
 */
import { createRequire } from 'node:module';
import { platform } from 'node:os';
import type { load } from 'koffi';

/** Blocks from this size up get a mapping of their own, and an arena's free top past it is returned. */
export const ALLOCATOR_THRESHOLD_BYTES = 1024 * 1024;

/**
 * The same settings for a child process Quire starts: glibc reads them when the child starts. Variables
 * already set in the child's environment win.
 */
export const ALLOCATOR_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: String(ALLOCATOR_THRESHOLD_BYTES),
  MALLOC_TRIM_THRESHOLD_: String(ALLOCATOR_THRESHOLD_BYTES),
};

// mallopt's parameter numbers (malloc.h).
const M_TRIM_THRESHOLD = -1;
const M_MMAP_THRESHOLD = -3;

interface Glibc {
  mallopt(parameter: number, value: number): number;
  mallocTrim(pad: number): number;
}

let glibc: Glibc | null | undefined;

/** glibc's allocator calls, loaded once; null on other systems (macOS, Windows, musl). */
function loadGlibc(): Glibc | null {
  if (glibc !== undefined) return glibc;
  glibc = null;
  if (platform() !== 'linux') return glibc;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as { load: typeof load };
    const libc = koffi.load('libc.so.6');
    const mallopt = libc.func('int mallopt(int parameter, int value)');
    const mallocTrim = libc.func('int malloc_trim(size_t pad)');
    glibc = {
      mallopt: (parameter, value) => Number(mallopt(parameter, value)),
      mallocTrim: (pad) => Number(mallocTrim(pad)),
    };
  } catch {
    glibc = null;
  }
  return glibc;
}

/** Sets this process's allocator as ALLOCATOR_ENV sets a child's; true when it could (glibc). */
export function tuneAllocator(): boolean {
  const libc = loadGlibc();
  if (!libc) return false;
  const mmap = libc.mallopt(M_MMAP_THRESHOLD, ALLOCATOR_THRESHOLD_BYTES);
  const trim = libc.mallopt(M_TRIM_THRESHOLD, ALLOCATOR_THRESHOLD_BYTES);
  return mmap === 1 && trim === 1;
}

/** Hands the allocator's free pages back to the system; true when it could (glibc). */
export function returnFreedMemory(): boolean {
  const libc = loadGlibc();
  if (!libc) return false;
  libc.mallocTrim(0);
  return true;
}
