import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProgressPrinter } from '../../src/core/cli/progressPrinter';
import type { IndexProgress } from '../../src/shared/domain/library';
import { writeSamplePdfs } from '../helpers/samplePdfs';
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
});
