import { resolve } from 'node:path';
import { QuireError } from '../../shared/errors';
import { createCore } from '../createCore';
import { closeBeforeExit } from './commandLifetime';
import { expandHome } from '../library/folderCheck';
import { commandWriter, readOnlyIfLibrary } from './libraryAccess';
import { documentRows } from './libraryTable';
import { printJson, say, shown } from './output';
import { UsageError } from './usage';

export async function libraryCommand(
  args: string[],
  options: { dataDir: string; json: boolean },
): Promise<void> {
  const [verb, ...rest] = args;
  // Listing reads beside the app; adding and removing a folder write, one writer at a time.
  const access =
    verb === 'list'
      ? await readOnlyIfLibrary(options.dataDir)
      : commandWriter(`library ${verb ?? ''}`.trim());
  const core = createCore({ dataDir: options.dataDir, ingest: false, findModels: false, ...access });
  closeBeforeExit(() => core.dispose());
  await core.start();
  try {
    switch (verb) {
      case 'add': {
        const folder = rest[0];
        if (!folder) throw new UsageError('Usage: quire library add <folder>');
        const root = await core.library.addFolder(resolve(expandHome(folder)));
        await core.library.whenIdle();
        const count = core.library.snapshot().documents.filter((d) => d.rootId === root.id).length;
        if (options.json) printJson(root);
        else say(`Added ${root.path} (${count} documents).`);
        return;
      }
      case 'remove': {
        const folder = rest[0];
        if (!folder) throw new UsageError('Usage: quire library remove <folder>');
        const path = resolve(expandHome(folder));
        const root = core.library.snapshot().roots.find((r) => r.path === path || r.id === folder);
        if (!root) throw new QuireError('not_found', `${folder} is not in the library.`);
        await core.library.removeFolder(root.id);
        if (!options.json) say(`Removed ${root.path}.`);
        return;
      }
      case 'list': {
        await core.library.listFolderFiles();
        const snapshot = core.library.snapshot();
        if (options.json) {
          // Page vectors belong to the index: each document gets its count (null while no page embedder is active).
          const counts = core.index.vectors.pageVectorCounts();
          const active = core.index.vectors.status().page.active;
          printJson({
            ...snapshot,
            pageEmbedder: active,
            documents: snapshot.documents.map((doc) => {
              const hash = core.index.documents.get(doc.id)?.contentHash ?? null;
              const count = hash === null ? undefined : counts.get(hash);
              return {
                ...doc,
                pageVectors: active === null ? null : (count?.vectors ?? 0),
                pagesWithVectors: active === null ? null : (count?.pages ?? 0),
              };
            }),
          });
          return;
        }
        if (snapshot.roots.length === 0)
          say('The library is empty: add a folder with `quire library add <folder>`.');
        for (const root of snapshot.roots) {
          say(`${root.path}${root.error ? `  (${root.error})` : ''}`);
          say(
            ...documentRows(
              snapshot.documents.filter((d) => d.rootId === root.id),
              shown,
            ),
          );
          for (const file of snapshot.skipped.filter((s) => s.rootId === root.id)) {
            say(`  not read: ${file.path}: ${file.reason}`);
          }
        }
        return;
      }
      default:
        throw new UsageError('Usage: quire library add|remove|list');
    }
  } finally {
    await core.dispose();
  }
}
