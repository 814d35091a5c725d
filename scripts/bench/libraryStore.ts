/**
 * `npm run bench -- library-store [folder] [--searches N]`: the same folder indexed into the local data
 * folder and into a library on the local object store (s3rver + dynalite), in one run: time until
 * searchable, search p50/p95 (BM25, from a reader that opened the library), and the store requests each
 * search makes, counted at the servers. What a real region would add is estimated from those counts.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCore, type Core } from '../../src/core/createCore';
import { parseLibraryLocation, type LibraryLocation } from '../../src/core/location/libraryLocation';
import { startObjectStore, type RunningObjectStore } from '../objectStoreServer';
import { corpusDir, tempDir } from '../../test/helpers/shared';
import type { BenchReport } from './report';

const QUERIES = [
  'trace trees',
  'technology acceptance model',
  'layout detection',
  'revenue growth',
  'just-in-time compiler',
  'perceived usefulness',
  'document image analysis',
  'loop',
];
/** Round trips a search makes one after another are what distance costs; 20 ms is a nearby region. */
const REGION_RTT_MS = [20, 80];

async function timeToSearchable(dataDir: string, folder: string, library: LibraryLocation | null) {
  const started = performance.now();
  const core = createCore({
    dataDir,
    ...(library ? { library } : {}),
    ocr: false,
    renderImages: false,
    findModels: false,
  });
  await core.start();
  try {
    await core.library.addFolder(folder);
    do {
      await core.library.whenIdle();
      await core.ingestion.whenIdle();
    } while (core.library.snapshot().scanning);
    await core.index.maintenance.optimize();
    const files = core.library.snapshot().documents.filter((d) => d.state === 'indexed').length;
    return { seconds: (performance.now() - started) / 1000, files };
  } finally {
    await core.dispose();
  }
}

async function searchTimes(core: Core, searches: number, store: RunningObjectStore | null) {
  const times: number[] = [];
  let requests = 0;
  for (let i = 0; i < searches; i++) {
    const query = QUERIES[i % QUERIES.length]!;
    const before = store?.requests();
    const started = performance.now();
    const result = await core.dispatch('search.retrieve', { query, k: 10, mode: 'bm25' });
    times.push(performance.now() - started);
    if (!result.ok) throw new Error(result.error.message);
    const after = store?.requests();
    if (before && after) requests += after.s3 - before.s3 + (after.dynamodb - before.dynamodb);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p95: at(0.95), requestsPerSearch: requests / searches };
}

export async function run(args: string[]): Promise<BenchReport> {
  const searchesAt = args.indexOf('--searches');
  const searches = searchesAt >= 0 ? Number(args[searchesAt + 1]) : 40;
  const folder =
    args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--searches') ?? join(corpusDir, 'pdfjs');
  const work = await tempDir('quire-bench-library-store-');
  const keys = { accessKeyId: 'quirebench', secretAccessKey: 'quire-bench-secret' };
  process.env.AWS_ACCESS_KEY_ID = keys.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = keys.secretAccessKey;
  const store = await startObjectStore({ ...keys, directory: join(work.path, 'store') });
  process.env.DYNAMODB_ENDPOINT = store.dynamodbEndpoint;
  const location = parseLibraryLocation({ uri: store.library, endpoint: store.endpoint });
  try {
    const rows: BenchReport['rows'] = [];
    const measured: Record<string, { seconds: number; p95: number; requests: number }> = {};
    for (const [name, library] of [
      ['local data folder', null],
      ['local object store', location],
    ] as const) {
      const built = await timeToSearchable(join(work.path, `${name}-writer`), folder, library);
      // The reader: another data folder on the store; the writer's own folder, read without indexing, locally.
      const core = createCore({
        dataDir: join(work.path, library ? `${name}-reader` : `${name}-writer`),
        ...(library ? { library } : {}),
        ingest: false,
        findModels: false,
      });
      await core.start();
      try {
        await searchTimes(core, 4, null); // warm-up: first opens of each table
        const times = await searchTimes(core, searches, library ? store : null);
        measured[name] = { seconds: built.seconds, p95: times.p95, requests: times.requestsPerSearch };
        rows.push({
          library: name,
          files: built.files,
          secondsToSearchable: built.seconds,
          searchP50Ms: times.p50,
          searchP95Ms: times.p95,
          requestsPerSearch: library ? times.requestsPerSearch : null,
        });
      } finally {
        await core.dispose();
      }
    }
    const store95 = measured['local object store'];
    const local95 = measured['local data folder'];
    const estimates = REGION_RTT_MS.map((rtt) => ({
      roundTripMs: rtt,
      // Upper bound: every request one after another. LanceDB issues many in parallel, so real cost is lower.
      addedMsIfSequential: (store95?.requests ?? 0) * rtt,
    }));
    for (const estimate of estimates)
      rows.push({
        library: `estimate: region at ${estimate.roundTripMs} ms round trip`,
        files: null,
        secondsToSearchable: null,
        searchP50Ms: null,
        searchP95Ms: null,
        requestsPerSearch: store95?.requests ?? null,
        addedMsAtMost: estimate.addedMsIfSequential,
      });
    return {
      name: 'library-store',
      rows,
      details: {
        folder,
        searches,
        ratios: {
          secondsToSearchable: store95 && local95 ? store95.seconds / local95.seconds : null,
          searchP95: store95 && local95 ? store95.p95 / local95.p95 : null,
        },
        estimates,
      },
    };
  } finally {
    await store.stop();
    await work.cleanup();
  }
}
