import { spawn } from 'node:child_process';
import { connect } from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, List, Schema, Utf8 } from 'apache-arrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { SeededRandom } from '../../src/core/common/seededRandom';
import { openOrMigrate } from '../../src/core/index/maintenance/migrations';
import { SCHEMA_VERSION, vectorTableName } from '../../src/core/index/schema';
import { PageKernelCache } from '../../src/core/index/vectors/pageKernelCache';
import { unpackHalf } from '../../src/core/index/vectors/pageVectorCells';
import { tempDir } from '../helpers/shared';

const dimensions = 8;
const table = vectorTableName('page', 'tiny-pages', dimensions);

/** Version 3 kept every page's vectors as a list of float32 vectors. */
const v3PageVectors = new Schema([
  new Field('page_id', new Utf8(), false),
  new Field('content_hash', new Utf8(), false),
  new Field(
    'vectors',
    new List(new Field('item', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), true)),
    false,
  ),
]);

function pageVectors(page: number): number[][] {
  const random = new SeededRandom(page + 1);
  if (page === 7) return []; // a page the embedder declined
  return Array.from({ length: 3 + (page % 5) }, () =>
    Array.from({ length: dimensions }, () => random.gaussian()),
  );
}

async function writeV3Store(dir: string, pages: number): Promise<void> {
  const db = await connect(dir);
  const ref = { id: 'tiny-pages', dimensions, table };
  const meta = {
    schemaVersion: 3,
    text: { active: null, pending: null },
    page: { active: ref, pending: null },
  };
  await db.createTable('meta', [{ key: 'index', value: JSON.stringify(meta) }]);
  const rows = Array.from({ length: pages }, (_, page) => ({
    page_id: `hash${page % 40}:${page}`,
    content_hash: `hash${page % 40}`,
    vectors: pageVectors(page),
  }));
  const vectors = await db.createEmptyTable(table, v3PageVectors);
  for (let start = 0; start < rows.length; start += 500) await vectors.add(rows.slice(start, start + 500));
}

async function packedSoFar(dir: string): Promise<number> {
  const db = await connect(dir, { readConsistencyInterval: 0 });
  const vectors = await db.openTable(table);
  if (!(await vectors.schema()).fields.some((field) => field.name === 'vectors_f16')) return 0;
  return vectors.countRows('vectors_f16 IS NOT NULL');
}

/** Starts the migration in its own process and kills it (SIGKILL) once some rows are packed. */
async function killMidway(dir: string, total: number): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/index/packPageVectorsRun.ts', dir], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let packed = 0;
  for (let tries = 0; tries < 6000 && child.exitCode === null; tries++) {
    packed = await packedSoFar(dir).catch(() => 0);
    if (packed > 0 && packed < total) {
      child.kill('SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await exited;
  return packed;
}

describe('page vectors migration (schema 3 -> 4)', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir('quire-pagevec-');
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it('packs every page into one fp16 cell, resuming after being killed half-way', async () => {
    const total = 3000;
    await writeV3Store(dir.path, total);
    const packedBeforeKill = await killMidway(dir.path, total);
    const afterKill = await packedSoFar(dir.path);
    console.log(`migration killed with ${afterKill} of ${total} pages packed`);
    expect(afterKill).toBeLessThan(total);

    // Opening the index runs what is left of the migration.
    const db = await connect(dir.path);
    const { meta } = await openOrMigrate(db);
    expect(meta.schemaVersion).toBe(SCHEMA_VERSION);
    {
      const [metaRow] = await (await db.openTable('meta')).query().toArray();
      expect(JSON.parse(metaRow.value).schemaVersion).toBe(SCHEMA_VERSION);
      const vectors = await db.openTable(table);
      expect((await vectors.schema()).fields.map((field) => field.name)).toEqual([
        'page_id',
        'content_hash',
        'vector_count',
        'vectors_f16',
      ]);
      const rows = await vectors.query().toArray();
      expect(rows).toHaveLength(total);
      for (const row of rows) {
        const page = Number(String(row.page_id).split(':')[1]);
        const original = pageVectors(page);
        expect(row.vector_count).toBe(original.length);
        const values = unpackHalf(row.vectors_f16 as Uint8Array, original.length, dimensions);
        original.forEach((vector, i) => {
          const norm = Math.hypot(...vector);
          // fp16 keeps about three significant digits of each unit-length component.
          vector.forEach((value, k) =>
            expect(Math.abs(values[i * dimensions + k]! - value / norm)).toBeLessThan(1e-3),
          );
        });
      }
      // The in-memory page index loads the packed cells: a page's own vectors find it first.
      const cache = new PageKernelCache();
      await cache.reload({ db } as Parameters<PageKernelCache['reload']>[0], meta.page.active);
      const kernel = cache.kernel!;
      expect(kernel.size).toBe(total - 1);
      const own = Float32Array.from(pageVectors(1234).flat());
      expect(kernel.search(own, pageVectors(1234).length, 1)[0]?.key).toBe('hash34:1234');
      // A second run finds nothing left to do.
      const { meta: again } = await openOrMigrate(db);
      expect(again.schemaVersion).toBe(SCHEMA_VERSION);
      cache.dispose();
    }
    expect(packedBeforeKill).toBeGreaterThan(0);
  }, 600_000);
});
