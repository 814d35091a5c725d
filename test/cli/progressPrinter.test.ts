import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProgressPrinter } from '../../src/core/cli/progressPrinter';
import type { IndexProgress } from '../../src/shared/domain/library';
import { samplePdfBytes, samplePdfs, writeSamplePdfs } from '../helpers/samplePdfs';
import { tempDir } from '../helpers/shared';

const cli = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'quire.mjs');

function progress(filesDone: number, pagesDone: number): IndexProgress {
  return {
    filesDone,
    filesTotal: 2,
    pagesDone,
    pagesTotal: 20,
    pagesPerSecond: 2,
    etaSeconds: (20 - pagesDone) / 2,
    pagesToDraw: 0,
    pagesToRecognize: 0,
    paused: false,
    stopped: null,
    currentPath: null,
    work: [
      {
        kind: 'text',
        pagesDone,
        pagesTotal: 20,
        pagesPerSecond: 2,
        etaSeconds: (20 - pagesDone) / 2,
        currentPath: null,
      },
    ],
  };
}

describe('indexing progress on stderr', () => {
  it('in a pipe: a plain line at once, then at most one every few seconds, and the last state at the end', () => {
    let now = 0;
    const lines: string[] = [];
    const printer = new ProgressPrinter({ write: (text) => lines.push(text) }, 3_000, () => now);
    printer.update(progress(0, 0));
    now = 1_000;
    printer.update(progress(0, 4));
    now = 3_100;
    printer.update(progress(1, 10));
    now = 4_000;
    printer.update(progress(2, 20));
    printer.finish();
    expect(lines).toEqual([
      'indexing: 0/2 files · text 0/20 pages, 2.0 pages/s, ETA 10 s\n',
      'indexing: 1/2 files · text 10/20 pages, 2.0 pages/s, ETA 5 s\n',
      'indexing: 2/2 files · text 20/20 pages\n',
    ]);
  });

  it('prints the final state once, though the queue reports it again as it settles', () => {
    let now = 0;
    const lines: string[] = [];
    const printer = new ProgressPrinter({ write: (text) => lines.push(text) }, 3_000, () => now);
    printer.update(progress(0, 0));
    now = 3_100;
    printer.update(progress(2, 20));
    now = 3_200;
    printer.update(progress(2, 20));
    printer.finish();
    expect(lines).toEqual([
      'indexing: 0/2 files · text 0/20 pages, 2.0 pages/s, ETA 10 s\n',
      'indexing: 2/2 files · text 20/20 pages\n',
    ]);
  });

  it('`quire index` piped prints progress lines with no terminal codes', async () => {
    const data = await tempDir();
    const folder = await tempDir();
    try {
      await writeSamplePdfs(folder.path);
      const child = spawn(process.execPath, [cli, 'index', folder.path, '--data-dir', data.path], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LANCEDB_LOG: 'error' },
      });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, stderr + stdout).toBe(0);
      expect(stderr).not.toContain('\r');
      expect(stderr).not.toContain('\u001b');
      const lines = stderr.split('\n').filter((l) => l.startsWith('indexing: '));
      expect(lines.length).toBeGreaterThanOrEqual(1);
      for (const l of lines) expect(l).toMatch(/^indexing: \d+\/\d+ files · text \d+\/\d+ pages/);
      expect(lines.at(-1)).toMatch(/^indexing: 3\/3 files · text 6\/6 pages/);
    } finally {
      await data.cleanup();
      await folder.cleanup();
    }
  }, 180_000);

  it('`quire index FOLDER` reports on that folder, names its unreadable files, and fails on them with --strict', async () => {
    const data = await tempDir();
    const first = await tempDir();
    const second = await tempDir();
    const index = async (folder: string, ...flags: string[]) => {
      const child = spawn(
        process.execPath,
        [cli, 'index', folder, '--data-dir', data.path, '--no-images', ...flags],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, LANCEDB_LOG: 'error' },
        },
      );
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      return { code, stdout, stderr };
    };
    try {
      await writeSamplePdfs(first.path);
      const firstRun = await index(first.path);
      expect(firstRun.code, firstRun.stderr + firstRun.stdout).toBe(0);
      await writeFile(join(second.path, 'notes.pdf'), samplePdfBytes(samplePdfs[0]!.pages));
      await writeFile(join(second.path, 'broken.pdf'), '%PDF-1.7\nnot a PDF at all\n');
      const secondRun = await index(second.path);
      // The second folder's two files, not the library's five.
      expect(secondRun.stdout).toContain(`Indexed 1 of 2 files in ${second.path}`);
      // A damaged file is a final state of that file, not a failure of the run, unless --strict says so.
      expect(secondRun.code, secondRun.stderr + secondRun.stdout).toBe(0);
      expect(secondRun.stderr).toMatch(/quire: 1 file could not be indexed: .*broken\.pdf\./);
      const strictRun = await index(second.path, '--strict');
      expect(strictRun.code, strictRun.stderr + strictRun.stdout).toBe(1);
      expect(strictRun.stderr).toMatch(/quire: 1 file could not be indexed: .*broken\.pdf\./);
      // The final progress line is printed once.
      const last = secondRun.stderr
        .split('\n')
        .filter((line) => line.startsWith('indexing: '))
        .at(-1);
      expect(secondRun.stderr.split(`${last}\n`).length).toBe(2);
    } finally {
      await data.cleanup();
      await first.cleanup();
      await second.cleanup();
    }
  }, 240_000);
});
