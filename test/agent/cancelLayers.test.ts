/**
 * A cancel reaches every layer below the Stop button within 200 ms, each under a slow stand-in: the
 * agent's search port, a retrieval search that ignores its signal, and a document being read in the
 * worker pool. (The index's own searches are covered in test/index/index.cancel.test.ts, model calls
 * in the provider tests; models, retrieval and the index again from `chat.cancel` through the dispatcher
 * of a real core in test/core/cancelEndToEnd.test.ts.) 200 ms is a generous deadline for what should take a few milliseconds.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { AgentService } from '../../src/core/agent/agentService';
import { createDocumentPool } from '../../src/core/documents/pool/documentPool';
import { retrieve } from '../../src/core/retrieval/retriever';
import type { SearchHit } from '../../src/shared/domain/search';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';
import { fakePorts } from './fakePorts';
import { scriptedRoles } from './scriptedModel';

const noCorpus = withoutCorpus('cancelling a corpus PDF being read');

const DEADLINE_MS = 200;
/**
 * The run's end also saves the conversation (a write and fsync): on a 2-core machine at load 20 that
 * alone once took more than 200 ms, while the work itself had stopped in under a millisecond.
 */
const RUN_END_DEADLINE_MS = 2000;

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('quire-cancel-');
});
afterEach(async () => {
  await dir.cleanup();
});

/** Milliseconds until `promise` settles, or 'still running' after the deadline. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<number | 'still running'> {
  const started = performance.now();
  return Promise.race([
    promise.then(
      () => performance.now() - started,
      () => performance.now() - started,
    ),
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms)),
  ]);
}

describe('cancelling reaches every layer', () => {
  it('agent: chat.cancel aborts the search under way and ends the run', async () => {
    let searchStarted!: () => void;
    const started = new Promise<void>((resolve) => (searchStarted = resolve));
    let searchSignal: AbortSignal | undefined;
    const ports = fakePorts({
      models: scriptedRoles({
        decide: [{ tool: 'text_search', inputs: { query: 'emergency stop', k: '3', mode: 'hybrid' } }],
      }),
      // A slow stand-in for the index: answers only after a minute.
      searchChunks: (_query, _options, signal) => {
        searchSignal = signal;
        searchStarted();
        return new Promise<SearchHit[]>((resolve) => setTimeout(() => resolve([]), 60_000).unref());
      },
    });
    const service = new AgentService({ ports, dataDir: dir.path });
    const { runId } = await service.ask('How fast does the emergency stop act?');
    await started;

    const aborted = new Promise<void>((resolve) =>
      searchSignal?.aborted ? resolve() : searchSignal?.addEventListener('abort', () => resolve()),
    );
    const done = service.waitForRun(runId);
    service.cancel(runId);
    const signalMs = await settlesWithin(aborted, DEADLINE_MS);
    const runMs = await settlesWithin(done, RUN_END_DEADLINE_MS);
    console.log(`search signal aborted after ${String(signalMs)} ms, run ended after ${String(runMs)} ms`);
    expect(searchSignal).toBeDefined();
    expect(signalMs).not.toBe('still running');
    expect(runMs).not.toBe('still running');
    expect((await done)?.status).toBe('cancelled');
  });

  it('retrieval: a search that ignores the signal cannot hold a cancelled caller', async () => {
    const controller = new AbortController();
    const stalled = retrieve(
      { search: () => new Promise<SearchHit[]>(() => undefined) },
      'what is the tidal range',
      { k: 5, signal: controller.signal },
    );
    stalled.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    expect(await settlesWithin(stalled, DEADLINE_MS)).not.toBe('still running');
    await expect(stalled).rejects.toMatchObject({ name: 'AbortError' });
  });

  it.skipIf(noCorpus)(
    'worker pool: a document being read stops when its signal aborts',
    { timeout: 120_000 },
    async () => {
      const pool = createDocumentPool({ size: 1 });
      try {
        const controller = new AbortController();
        const reading = pool.parse(join(corpusDir, 'financebench', '3M_2022_10K.pdf'), {
          kind: 'pdf',
          signal: controller.signal,
        });
        reading.catch(() => undefined);
        // Long enough for the worker to be in the middle of the document.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(pool.pending()).toBe(1);
        controller.abort();
        expect(await settlesWithin(reading, DEADLINE_MS)).not.toBe('still running');
        await expect(reading).rejects.toMatchObject({ code: 'cancelled' });
        expect(pool.pending()).toBe(0);
      } finally {
        await pool.dispose();
      }
    },
  );
});
