import { spawn } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from '@lancedb/lancedb';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusDir, tempDir } from '../helpers/shared';
import { SeededRandom } from '../../src/core/common/seededRandom';

const cli = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'quire.mjs');
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** Runs `quire index` and kills it with SIGKILL after `killAfterMs`, or lets it finish. */
function runIndex(folder: string, dataDir: string, killAfterMs: number | null) {
  return new Promise<{ killed: boolean; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [cli, 'index', folder, '--data-dir', dataDir, '--json', '--no-images'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LANCEDB_LOG: 'error' },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = killAfterMs === null ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (_code, signal) => {
      if (timer) clearTimeout(timer);
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

describe('crash safety', () => {
  it('survives repeated kill -9 during indexing: resumes, no duplicates, nothing lost', async () => {
    const folder = await tempDir();
    const reference = await tempDir();
    const crashed = await tempDir();
    cleanups.push(folder.cleanup, reference.cleanup, crashed.cleanup);
    for (const name of ['tracemonkey.pdf', 'TAMReview.pdf', 'calrgb.pdf', 'issue12963.pdf']) {
      await copyFile(join(corpusDir, 'pdfjs', name), join(folder.path, name));
    }
    await copyFile(join(corpusDir, 'docling', 'pdf__normal_4pages.pdf'), join(folder.path, 'four.pdf'));

    const clean = await runIndex(folder.path, reference.path, null);
    expect(clean.killed).toBe(false);
    const expected = await chunkIds(reference.path);
    expect(expected.ids.length).toBeGreaterThan(50);

    const seed = Number(process.env.QUIRE_CRASH_SEED ?? Date.now() % 100_000);
    const random = seeded(seed);
    let kills = 0;
    for (let round = 0; round < 4; round++) {
      const run = await runIndex(folder.path, crashed.path, 1500 + Math.floor(random() * 5000));
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

/** Uniform numbers in [0, 1) from a seed. */
function seeded(seed: number): () => number {
  const generator = new SeededRandom(seed);
  return () => generator.next();
}
