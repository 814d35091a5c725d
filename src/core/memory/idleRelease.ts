/*
 * Gives memory back once work is over: when no document is being read and Quire's own process has
 * grown since it last did so, V8 collects and returns its spare pages (common/v8Heap.ts), then the
 * allocator returns the pages that finished work freed (common/allocator.ts). Reader threads exit after
 * the idle delay, so this follows about that long after indexing ends, and again after later work (a
 * background embedding pass, searches) if it grew.
 */
import { returnFreedMemory } from '../common/allocator';
import { returnHeapToSystem } from '../common/v8Heap';

/** V8 first: the collection frees buffers held by dead objects, which the allocator then returns. */
export function returnIdleMemory(): boolean {
  const heap = returnHeapToSystem();
  return returnFreedMemory() || heap;
}

export interface IdleReleaseOptions {
  /** True while work is queued or running, or reader threads are still alive. */
  busy: () => boolean;
  /** How often to look, in ms (5 s by default). */
  intervalMs?: number;
  /** Growth of the process's resident memory since its lowest point that is worth a release (16 MB by default). */
  growthBytes?: number;
  /** The process's resident bytes now. */
  residentBytes?: () => number;
  /** Returns freed memory; false when the system offers no way to. */
  release?: () => boolean;
}

export interface IdleRelease {
  /** Looks once now: releases if idle and grown (what the timer does every interval). */
  check(): boolean;
  dispose(): void;
}

export function releaseMemoryWhenIdle(options: IdleReleaseOptions): IdleRelease {
  const residentBytes = options.residentBytes ?? (() => process.memoryUsage.rss());
  const release = options.release ?? returnIdleMemory;
  const growthBytes = options.growthBytes ?? 16 * 1024 * 1024;
  let lowest = residentBytes();
  let available = true;
  const check = () => {
    if (!available) return false;
    const now = residentBytes();
    lowest = Math.min(lowest, now);
    if (now - lowest < growthBytes || options.busy()) return false;
    available = release();
    lowest = residentBytes();
    return available;
  };
  const timer = setInterval(check, options.intervalMs ?? 5000);
  timer.unref();
  return {
    check,
    dispose: () => clearInterval(timer),
  };
}
