import { resolve } from 'node:path';
import type { Collection } from '../../shared/domain/scope';
import type { CallResult } from '../../shared/ipc/contract';
import { QuireError } from '../../shared/errors';
import { createCore } from '../createCore';
import { closeBeforeExit } from './commandLifetime';
import { commandWriter, readOnlyIfLibrary } from './libraryAccess';
import { printJson, say } from './output';
import { UsageError } from './usage';

const USAGE =
  'Usage: quire collections list | create NAME | rename NAME NEW | delete NAME | add NAME PATH... | remove NAME PATH...';

/** `quire collections ...`: saved scopes, through the contract like every other caller. */
export async function collectionsCommand(
  args: string[],
  options: { dataDir: string; json: boolean },
): Promise<void> {
  const [verb, name, ...rest] = args;
  // Collections are saved with the library: listing reads beside the app, a change writes.
  const access =
    verb === 'list'
      ? await readOnlyIfLibrary(options.dataDir)
      : commandWriter(`collections ${verb ?? ''}`.trim());
  const core = createCore({ dataDir: options.dataDir, ingest: false, findModels: false, ...access });
  closeBeforeExit(() => core.dispose());
  await core.start();
  try {
    const call = async <T>(result: Promise<CallResult<T>>): Promise<T> => {
      const done = await result;
      if (!done.ok) throw new QuireError(done.error.code, done.error.message);
      return done.value;
    };
    const paths = rest.map((p) => resolve(p));
    const need = (ok: boolean) => {
      if (!ok) throw new UsageError(USAGE);
    };
    let changed: Collection | null = null;
    switch (verb) {
      case 'list': {
        const list = (await call(core.dispatch('collections.list', {}))) as Collection[];
        if (options.json) return printJson(list);
        if (list.length === 0) say('No collections: make one with `quire collections create NAME`.');
        for (const c of list) {
          say(`${c.name}  (${c.paths.length} ${c.paths.length === 1 ? 'item' : 'items'})`);
          for (const p of c.paths) say(`  ${p}`);
        }
        return;
      }
      case 'create':
        need(!!name);
        changed = (await call(core.dispatch('collections.create', { name: name! }))) as Collection;
        break;
      case 'rename':
        need(!!name && !!rest[0]);
        changed = (await call(
          core.dispatch('collections.rename', { name: name!, to: rest[0]! }),
        )) as Collection;
        break;
      case 'delete':
        need(!!name);
        await call(core.dispatch('collections.delete', { name: name! }));
        if (options.json) printJson(null);
        else say(`Deleted the collection "${name}" (its documents stay in the library).`);
        return;
      case 'add':
        need(!!name && paths.length > 0);
        changed = (await call(core.dispatch('collections.add', { name: name!, paths }))) as Collection;
        break;
      case 'remove':
        need(!!name && paths.length > 0);
        changed = (await call(core.dispatch('collections.remove', { name: name!, paths }))) as Collection;
        break;
      default:
        need(false);
    }
    if (options.json) printJson(changed);
    else if (changed)
      say(`${changed.name}: ${changed.paths.length} item(s)`, ...changed.paths.map((p) => `  ${p}`));
  } finally {
    await core.dispose();
  }
}
