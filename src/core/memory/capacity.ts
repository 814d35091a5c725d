/*
 * The arithmetic both the planner and the live budget use, so they never disagree.
 */
import type { MachineMemory } from './machineMemory';

const GB = 1e9;

/** Kept free for Quire itself (renderer, LanceDB, page rendering) and the rest of the system. */
export function appHeadroomBytes(totalBytes: number): number {
  return Math.round(1.5 * GB + 0.1 * totalBytes);
}

/**
 * Metal lets one process keep roughly this share of unified memory resident on the GPU
 * (recommendedMaxWorkingSetSize is about 2/3 to 3/4 of RAM); models past it fall back or fail.
 */
export const UNIFIED_GPU_WORKING_SET_SHARE = 0.75;

/**
 * Bytes all models together may hold: what is available now, plus what already loaded models hold
 * (it is already missing from `availableBytes`), minus the headroom.
 */
export function modelCapacityBytes(
  machine: Pick<MachineMemory, 'totalBytes' | 'availableBytes' | 'unifiedMemory'>,
  residentModelBytes: number,
  headroomBytes: number,
): number {
  const fromAvailable = machine.availableBytes + residentModelBytes - headroomBytes;
  return machine.unifiedMemory
    ? Math.min(fromAvailable, UNIFIED_GPU_WORKING_SET_SHARE * machine.totalBytes)
    : fromAvailable;
}

/** `12.3 GB`: decimal gigabytes, as the operating systems show them. */
export function formatBytes(bytes: number): string {
  if (Math.abs(bytes) >= 0.1 * GB) return `${(bytes / GB).toFixed(1)} GB`;
  return `${Math.round(bytes / 1e6)} MB`;
}

/**
 * LanceDB's cache caps for a machine of `totalBytes`: its defaults (6 GB of index, 1 GB of metadata)
 * would let the caches alone outgrow an 8 GB laptop. Searches over a library stay fast well inside these.
 */
export function indexCacheLimits(totalBytes: number): { indexBytes: number; metadataBytes: number } {
  const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
  return {
    indexBytes: clamp(0.03 * totalBytes, 64e6, 1e9),
    metadataBytes: clamp(0.01 * totalBytes, 32e6, 256e6),
  };
}
