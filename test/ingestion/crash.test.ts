import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from '@lancedb/lancedb';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';
import { SeededRandom } from '../../src/core/common/seededRandom';

const noCorpus = withoutCorpus('crash safety on corpus PDFs');

const cli = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'quire.mjs');
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/**
 * Runs `quire index` and kills it with SIGKILL after `killAfterMs` (or once `killWhen()` holds, checked
 * every 100 ms), or lets it finish.
 */
function runIndex(
  folder: string,
  dataDir: string,
  killAfterMs: number | null,
  extraArgs: string[] = ['--no-ocr'],
  killWhen?: () => boolean,
) {
  return new Promise<{ killed: boolean; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [cli, 'index', folder, '--data-dir', dataDir, '--json', '--no-images', ...extraArgs],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LANCEDB_LOG: 'error' },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = killAfterMs === null ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    const watcher = killWhen ? setInterval(() => killWhen() && child.kill('SIGKILL'), 100) : null;
    child.on('exit', (_code, signal) => {
      if (timer) clearTimeout(timer);
      if (watcher) clearInterval(watcher);
      resolve({ killed: signal === 'SIGKILL', output });
    });
  });
}

async function chunkIds(
  dataDir: string,
): Promise<{ ids: string[]; documents: Array<Record<string, unknown>> }> {
  const db = await connect(join(dataDir, 'index'));
  try {
    const chunks = await (await db.openTable('chunks')).query().select(['id']).toArray();
    const documents = await (await db.openTable('documents')).query().toArray();
    return { ids: chunks.map((row) => String(row.id)), documents };
  } finally {
    db.close();
  }
}

describe.skipIf(noCorpus)('crash safety', () => {
  it('survives repeated kill -9 during indexing: resumes, no duplicates, nothing lost', async () => {
    const folder = await tempDir();
    const reference = await tempDir();
    const crashed = await tempDir();
    cleanups.push(folder.cleanup, reference.cleanup, crashed.cleanup);
    for (const name of ['tracemonkey.pdf', 'TAMReview.pdf', 'calrgb.pdf', 'issue12963.pdf']) {
      await copyFile(join(corpusDir, 'pdfjs', name), join(folder.path, name));
    }
    await copyFile(join(corpusDir, 'docling', 'pdf__normal_4pages.pdf'), join(folder.path, 'four.pdf'));

    const cleanStarted = Date.now();
    const clean = await runIndex(folder.path, reference.path, null);
    const cleanMs = Date.now() - cleanStarted;
    expect(clean.killed).toBe(false);
    const expected = await chunkIds(reference.path);
    expect(expected.ids.length).toBeGreaterThan(50);

    const seed = Number(process.env.QUIRE_CRASH_SEED ?? Date.now() % 100_000);
    const random = seeded(seed);
    let kills = 0;
    for (let round = 0; round < 4; round++) {
      // Killed somewhere inside the time a whole run takes on this machine, so it lands mid-run.
      const run = await runIndex(folder.path, crashed.path, Math.floor(cleanMs * (0.25 + 0.5 * random())));
      if (run.killed) kills++;
      const partial = await chunkIds(crashed.path).catch(() => ({ ids: [] as string[], documents: [] }));
      expect(new Set(partial.ids).size, `duplicate chunks after round ${round} (seed ${seed})`).toBe(
        partial.ids.length,
      );
    }
    const final = await runIndex(folder.path, crashed.path, null);
    expect(final.killed).toBe(false);
    const summary = JSON.parse(final.output.slice(final.output.indexOf('{'))) as {
      states: Record<string, number>;
      failures: unknown[];
      warnings: unknown[];
    };
    expect(summary).toMatchObject({ states: { indexed: 5 }, failures: [], warnings: [] });
    const after = await chunkIds(crashed.path);
    expect(new Set(after.ids).size).toBe(after.ids.length);
    expect(after.ids.sort()).toEqual(expected.ids.sort());
    console.log(`crash test: ${kills} kills (seed ${seed}), ${after.ids.length} chunks as in a clean run`);
    expect(kills).toBeGreaterThan(0);
  }, 400_000);
});

describe.skipIf(noCorpus)('crash safety of OCR', () => {
  it('a run killed while reading scanned pages resumes with only the pages it had not finished', async () => {
    const folder = await tempDir();
    const data = await tempDir();
    cleanups.push(folder.cleanup, data.cleanup);
    await copyFile(join(corpusDir, 'docling', 'ocr__nemotron_multipage.pdf'), join(folder.path, 'scan.pdf'));
    const pagesSaved = () => savedOcrPages(data.path);
    // With --no-ocr the text layer is indexed and the scanned pages wait, counted.
    const off = await runIndex(folder.path, data.path, null, ['--no-ocr']);
    const offSummary = JSON.parse(off.output.slice(off.output.indexOf('{'))) as Record<string, unknown>;
    expect(offSummary).toMatchObject({ states: { indexed: 1 }, ocr: 'off', ocrPages: 0, ocrWaitingPages: 4 });
    expect(pagesSaved()).toHaveLength(0);
    // Killed as soon as the first page is saved, while the others are still being read.
    const first = await runIndex(folder.path, data.path, 300_000, [], () => pagesSaved().length >= 1);
    expect(first.killed).toBe(true);
    const before = new Map(pagesSaved().map((file) => [file, statSync(file).mtimeMs]));
    expect(before.size).toBeGreaterThanOrEqual(1);
    expect(before.size).toBeLessThan(4);
    const resumed = await runIndex(folder.path, data.path, null, []);
    expect(resumed.killed).toBe(false);
    const summary = JSON.parse(resumed.output.slice(resumed.output.indexOf('{'))) as Record<string, unknown>;
    expect(summary).toMatchObject({ states: { indexed: 1 }, ocrPages: 4, ocrWaitingPages: 0 });
    // The pages saved before the kill were not read again.
    for (const [file, mtime] of before) expect(statSync(file).mtimeMs, file).toBe(mtime);
    expect(pagesSaved()).toHaveLength(4);
    const { documents } = await chunkIds(data.path);
    expect(documents).toHaveLength(1);
    console.log(`OCR crash test: ${before.size} of 4 pages kept across the kill`);
  }, 400_000);
});

/** OCR result files saved under the data dir (one per page). */
function savedOcrPages(dataDir: string): string[] {
  const root = join(dataDir, 'ocr');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => /p\d+\.json$/.test(name))
    .map((name) => join(root, name));
}

/** Uniform numbers in [0, 1) from a seed. */
function seeded(seed: number): () => number {
  const generator = new SeededRandom(seed);
  return () => generator.next();
}
