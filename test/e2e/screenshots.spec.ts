import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { expect, test } from '@playwright/test';
import { withoutCorpus } from '../helpers/shared';

const root = join(import.meta.dirname, '..', '..');

/** The screenshots script end to end: real app, real core, Chromium; pictures of every view it names. */
test('npm run screenshots writes a picture of each view', async () => {
  test.skip(withoutCorpus('the screenshots script on corpus files'));
  test.setTimeout(420_000);
  const out = await mkdtemp(join(tmpdir(), 'quire-screenshots-test-'));
  try {
    // The script itself, without the build step `npm run screenshots` adds (the suite runs on a build).
    await promisify(execFile)(
      process.execPath,
      [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/screenshots.ts', '--out', out],
      { cwd: root, timeout: 400_000 },
    );
    const names = (await readdir(out)).sort();
    expect(names).toEqual([
      'chat.png',
      'indexing.png',
      'library-narrow.png',
      'library.png',
      'models.png',
      'no-model.png',
      'settings.png',
      'viewer.png',
    ]);
    for (const name of names) {
      const image = sharp(join(out, name));
      const { width, height } = await image.metadata();
      expect([width, height]).toEqual(name === 'library-narrow.png' ? [360, 800] : [1440, 900]);
      // Not a blank page: the picture has both light and dark pixels.
      const { channels } = await image.stats();
      const grey = channels[0]!;
      expect(grey.max - grey.min, name).toBeGreaterThan(100);
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
