import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { samplePdfBytes, samplePdfs } from '../helpers/samplePdfs';
import { tempDir } from '../helpers/shared';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function coreWith(openFile: ((path: string) => Promise<void>) | null) {
  const dir = await tempDir();
  cleanups.push(dir.cleanup);
  const folder = join(dir.path, 'library');
  await mkdir(folder);
  await writeFile(join(folder, 'survey.pdf'), samplePdfBytes(samplePdfs[0]!.pages));
  const core: Core = createCore({
    dataDir: join(dir.path, 'data'),
    ingest: false,
    findModels: false,
    detectServers: false,
    openFile,
  });
  cleanups.unshift(() => core.dispose());
  await core.start();
  await core.library.addFolder(folder);
  await core.library.whenIdle();
  const [doc] = core.library.snapshot().documents;
  return { core, doc: doc!, folder };
}

describe('opening a document in the system viewer', () => {
  it('hands the desktop opener the file’s real path, after the path policy', async () => {
    const opened: string[] = [];
    const { core, doc, folder } = await coreWith(async (path) => {
      opened.push(path);
    });
    expect(await core.dispatch('pages.openExternal', { documentId: doc.id })).toEqual({
      ok: true,
      value: { opened: true },
    });
    expect(opened).toEqual([join(folder, 'survey.pdf')]);

    // A file that vanished is refused with a reason, and nothing is opened.
    await rm(join(folder, 'survey.pdf'));
    const gone = await core.dispatch('pages.openExternal', { documentId: doc.id });
    expect(gone.ok).toBe(false);
    expect(opened).toHaveLength(1);
  });

  it('says it is a desktop feature where there is no desktop (quire serve, the browser)', async () => {
    const { core, doc } = await coreWith(null);
    const result = await core.dispatch('pages.openExternal', { documentId: doc.id });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('unsupported');
      expect(result.error.message).toMatch(/desktop app/);
    }
  });
});
