/**
 * Stop, end to end: `chat.cancel` through the dispatcher of a real core (real index on disk, a real PDF
 * from the corpus read by the worker pool) reaches the work under way below the agent, each time under
 * a slow stand-in model server speaking Ollama's wire format (streamed NDJSON chat, /api/embed):
 * - a model call: the decision streams one piece and stalls; the stand-in sees the client hang up;
 * - the answer: it streams its first words to the user and stalls; the same;
 * - a search: the agent's text search goes through retrieval into the index's hybrid search, whose
 *   query embedding the stand-in holds; the retrieval call, the index search and the embedding
 *   request all stop.
 * In both, the run ends `cancelled`. 200 ms is a generous deadline for what takes milliseconds.
 *
 * Not here, and why: LanceDB 0.31's JS queries take no AbortSignal (only a `timeoutMs`), so the index
 * releases its caller at once and drops the result while a native query already running finishes on
 * its own (milliseconds at this size); and no worker-pool job runs on a chat's path (documents are read
 * by ingestion, page images come from the store): the pool's own cancel is in
 * test/agent/cancelLayers.test.ts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import type { AgentEvent } from '../../src/shared/domain/agent';
import type { CallOutput } from '../../src/shared/ipc/contract';
import { samplePdfBytes, samplePdfs } from '../helpers/samplePdfs';
import { tempDir } from '../helpers/shared';
import {
  startOllamaStandIn,
  type OllamaStandIn,
  type OllamaStandInBehaviour,
} from '../standins/ollamaStandIn';
import { scriptedReplies } from '../standins/scriptedAgent';

const DEADLINE_MS = 200;
/** Long enough that nothing the test waits for could finish on its own. */
const STALL_MS = 60_000;

let dir: Awaited<ReturnType<typeof tempDir>>;
let ollama: OllamaStandIn;
let core: Core;
const completions = new Map<string, (event: AgentEvent) => void>();

/** Resolves when the run's `complete` event arrives. */
function completion(runId: string): Promise<Extract<AgentEvent, { type: 'complete' }>> {
  return new Promise((resolve) => completions.set(runId, resolve as (event: AgentEvent) => void));
}

/**
 * For each condition, the milliseconds from `since` until it first held, or 'still running' if it
 * did not hold within the deadline. All are watched at once, so each gets the whole deadline.
 */
async function whenEach<K extends string>(
  since: number,
  conditions: Record<K, () => boolean>,
): Promise<Record<K, number | 'still running'>> {
  const names = Object.keys(conditions) as K[];
  const times = {} as Record<K, number | 'still running'>;
  for (;;) {
    const now = performance.now();
    for (const name of names) if (times[name] === undefined && conditions[name]()) times[name] = now - since;
    if (names.every((name) => times[name] !== undefined)) return times;
    if (now - since > DEADLINE_MS) {
      for (const name of names) times[name] ??= 'still running';
      return times;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > ms) throw new Error(`Gave up waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function dispatch<T>(name: Parameters<Core['dispatch']>[0], input: unknown): Promise<T> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
}

/** Records when a method's call settled and how, keeping its behaviour. */
function watch<T extends object, K extends keyof T>(target: T, method: K) {
  const calls: Array<{ signal: AbortSignal | undefined; settledAt: number | null; error: unknown }> = [];
  const original = target[method] as (...args: unknown[]) => Promise<unknown>;
  target[method] = ((...args: unknown[]) => {
    const options = args[1] as { signal?: AbortSignal } | undefined;
    const call = { signal: options?.signal, settledAt: null as number | null, error: null as unknown };
    calls.push(call);
    const work = original.apply(target, args);
    work.then(
      () => (call.settledAt = performance.now()),
      (error: unknown) => {
        call.settledAt = performance.now();
        call.error = error;
      },
    );
    return work;
  }) as T[K];
  return { calls, restore: () => (target[method] = original as T[K]) };
}

beforeAll(async () => {
  dir = await tempDir('quire-cancel-e2e-');
  ollama = await startOllamaStandIn([
    { name: 'qwen3:8b', capabilities: ['completion'] },
    { name: 'nomic-embed-text', capabilities: ['embedding'], embeddingLength: 16 },
  ]);
  const folder = join(dir.path, 'papers');
  await mkdir(folder);
  await writeFile(join(folder, 'survey.pdf'), samplePdfBytes(samplePdfs[0]!.pages));
  core = createCore({
    dataDir: join(dir.path, 'data'),
    detectServers: false,
    servers: [ollama.baseUrl],
    renderImages: false,
    ocr: false,
    workers: 1,
    embedInBackground: true,
  });
  core.events.on('chat.onEvent', (event) => {
    if (event.type === 'complete') completions.get(event.runId)?.(event);
  });
  await core.start();
  await dispatch('library.addFolder', { path: folder });
  // Read by the worker pool, indexed, and its passages embedded through the stand-in.
  const started = performance.now();
  for (;;) {
    const snapshot = await dispatch<CallOutput<'library.list'>>('library.list', {});
    if (snapshot.documents.some((doc) => doc.state === 'indexed')) break;
    if (performance.now() - started > 150_000) throw new Error('The PDF was not indexed in time.');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Reading goes on after the file shows indexed (its pages' layers are measured, and text that changes
  // is embedded again): a passage embedding still in flight would count as the search's own.
  await core.ingestion.whenIdle();
  await core.embedding.whenIdle();
  if (!ollama.requests.some((request) => request.path === '/api/embed')) {
    throw new Error('The passages were not embedded: the search would not ask the stand-in for a vector.');
  }
}, 180_000);

afterAll(async () => {
  await core?.dispose();
  await ollama?.close();
  await dir?.cleanup();
});

describe('chat.cancel through the dispatcher', () => {
  it('stops a streaming model call and ends the run cancelled', async () => {
    // The decision's first piece arrives, then the stand-in stalls.
    ollama.behaviour.reply = () => ['{"tool": "text_search", ', '"inputs": {}}'];
    ollama.behaviour.delayBetweenPiecesMs = STALL_MS;
    const chatsBefore = ollama.chatBodies().length;
    const hangUpsBefore = ollama.clientHangUps;

    const { runId } = await dispatch<{ runId: string }>('chat.ask', { question: 'What is a trace tree?' });
    const done = completion(runId);
    await until(() => ollama.chatBodies().length > chatsBefore, 'the decision request');
    await new Promise((resolve) => setTimeout(resolve, 100));

    const cancelledAt = performance.now();
    await dispatch('chat.cancel', { runId });
    let ended: Awaited<typeof done> | null = null;
    void done.then((event) => (ended = event));
    const times = await whenEach(cancelledAt, {
      modelCall: () => ollama.clientHangUps > hangUpsBefore,
      run: () => ended !== null,
    });
    console.log('milliseconds from chat.cancel until each stopped:', times);
    expect(times).toEqual({ modelCall: expect.any(Number), run: expect.any(Number) });
    expect(ended).toMatchObject({ status: 'cancelled' });
  });

  it('stops the retrieval call, the index search and its query embedding, and ends the run cancelled', async () => {
    const reply = scriptedReplies(
      [{ tool: 'text_search', inputs: { query: 'trace trees', k: '5', mode: 'hybrid' } }],
      'Trace trees record hot loops [1].',
    );
    // Decisions and rewrites come at once; the embedding of the search's query never does.
    ollama.behaviour = { reply: (body) => reply(body.format), embedDelayMs: STALL_MS };
    const embeds = () => ollama.requests.filter((request) => request.path === '/api/embed').length;
    const embedsBefore = embeds();
    const hangUpsBefore = ollama.clientHangUps;
    const retrieval = watch(core.retrieval, 'search');
    const indexSearch = watch(core.index.search, 'chunks');
    try {
      const { runId } = await dispatch<{ runId: string }>('chat.ask', { question: 'What is a trace tree?' });
      const done = completion(runId);
      await until(() => embeds() > embedsBefore, 'the search to ask for its query vector');

      const cancelledAt = performance.now();
      await dispatch('chat.cancel', { runId });
      let ended: Awaited<typeof done> | null = null;
      void done.then((event) => (ended = event));
      const settled = (calls: typeof retrieval.calls) =>
        calls.length > 0 && calls.every((c) => c.settledAt !== null);
      const times = await whenEach(cancelledAt, {
        retrieval: () => settled(retrieval.calls),
        indexSearch: () => settled(indexSearch.calls),
        // Every query-vector request the search made is closed, not left to the stand-in's minute.
        embedding: () => ollama.clientHangUps - hangUpsBefore >= embeds() - embedsBefore,
        run: () => ended !== null,
      });
      console.log(
        `milliseconds from chat.cancel until each stopped (${indexSearch.calls.length} index searches):`,
        times,
      );
      expect(times).toEqual({
        retrieval: expect.any(Number),
        indexSearch: expect.any(Number),
        embedding: expect.any(Number),
        run: expect.any(Number),
      });
      for (const call of [...retrieval.calls, ...indexSearch.calls]) {
        expect(call.signal?.aborted).toBe(true);
        expect(call.error).toMatchObject({ name: 'AbortError' });
      }
      expect(ended).toMatchObject({ status: 'cancelled' });
    } finally {
      retrieval.restore();
      indexSearch.restore();
    }
  });

  it('stops the answer while it streams to the user, keeping what was shown', async () => {
    const reply = scriptedReplies(
      [
        { tool: 'text_search', inputs: { query: 'trace trees', k: '5', mode: 'bm25' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      'Trace trees record the hot loops of a program and the paths through them [1].',
    );
    const behaviour: OllamaStandInBehaviour = {
      reply: (body) => {
        const pieces = reply(body.format);
        // The answer (free text) streams its first words, then the stand-in stalls.
        if (!body.format) behaviour.delayBetweenPiecesMs = STALL_MS;
        return pieces;
      },
    };
    ollama.behaviour = behaviour;
    const hangUpsBefore = ollama.clientHangUps;
    const tokens: string[] = [];
    const stopListening = core.events.on('chat.onEvent', (event) => {
      if (event.type === 'token') tokens.push(event.text);
    });
    try {
      const { runId } = await dispatch<{ runId: string }>('chat.ask', { question: 'What is a trace tree?' });
      const done = completion(runId);
      await until(() => tokens.length > 0, 'the answer to start streaming');

      const cancelledAt = performance.now();
      await dispatch('chat.cancel', { runId });
      let ended: Awaited<typeof done> | null = null;
      void done.then((event) => (ended = event));
      const times = await whenEach(cancelledAt, {
        modelCall: () => ollama.clientHangUps > hangUpsBefore,
        run: () => ended !== null,
      });
      console.log('milliseconds from chat.cancel until each stopped:', times);
      expect(times).toEqual({ modelCall: expect.any(Number), run: expect.any(Number) });
      expect(ended).toMatchObject({ status: 'cancelled' });
      expect(tokens.join('')).toMatch(/^Trace /);
    } finally {
      stopListening();
    }
  });
});
