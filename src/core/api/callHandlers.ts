import type { CoreServices } from '../coreServices';
import { toDocumentInfo } from '../library/libraryService';
import { retryDocument } from '../ingestion/retryDocument';
import { readPageImage } from '../pages/readPageImage';
import { openExternally } from '../pages/openExternally';
import { readPageText } from '../pages/readPageText';
import { readPageWords } from '../pages/readPageWords';
import { currentSearchNotice, searchChunks } from '../search/chunkSearch';
import { chunkSearchDeps } from '../search/coreSearch';
import type { CallHandlers } from './dispatcher';

/** Each contract call delegates to a core service in one step; logic lives in the services. */
export function createCallHandlers(core: CoreServices): CallHandlers {
  /** The answer of a call that changed the library, sent after the change itself (see flush()). */
  const afterChange = <T>(answer: T): T => {
    core.libraryChanges.flush();
    return answer;
  };
  return {
    'library.list': async (page) => core.libraryChanges.list(page),
    'library.addFolder': async ({ path }) => afterChange(await core.library.addFolder(path)),
    'library.removeFolder': async ({ rootId, undoable }) =>
      afterChange(await core.library.removeFolder(rootId, { undoable })),
    'library.undoRemove': async ({ rootId }) => afterChange(await core.library.undoRemove(rootId)),
    'library.retry': async ({ documentId }) =>
      afterChange(toDocumentInfo(retryDocument(core.library, core.ingestion, documentId))),
    'library.unlock': async ({ documentId, password, remember }) =>
      afterChange(toDocumentInfo(await core.ingestion.unlock(documentId, password, remember))),
    'library.pause': async () => core.ingestion.pause(),
    'library.resume': async () => core.ingestion.resume(),
    'library.cancel': async () => core.ingestion.cancel(),
    'library.progress': async () => core.ingestion.progress(),
    'search.query': async ({ query, k, mode, scope }, signal) => {
      // Resolved first, so a scope naming a vanished file fails before anything is searched.
      const resolved = core.index.search.resolveScope(scope);
      const { searched } = resolved;
      const filter = { resolvedScope: resolved };
      if (mode === 'pages')
        return {
          hits: await core.index.search.pages(query, { k, filter, signal }),
          mode,
          notice: null,
          searched,
        };
      const found = await searchChunks(chunkSearchDeps(core), query, {
        k,
        signal,
        ...(mode ? { mode } : {}),
        scope: resolved,
      });
      // One notice: why the mode differs comes first, else what the search could not see.
      const notice =
        found.notice ??
        core.index.search.changedNote() ??
        (found.mode === 'dense' ? null : core.index.search.keywordNote());
      return { ...found, notice, searched };
    },
    'search.documents': async ({ query, scope, related }, signal) => {
      const resolved = core.index.search.resolveScope(scope);
      return {
        searched: resolved.searched,
        documents: await core.index.search.documents(query, {
          filter: { resolvedScope: resolved },
          related,
          signal,
        }),
      };
    },
    'search.notice': async () => ({ notice: currentSearchNotice(chunkSearchDeps(core)) }),
    'search.retrieve': ({ query, k, mode, rewrite, rerank, scope }, signal) =>
      core.retrieval.search(query, {
        k,
        rewrite,
        rerank,
        signal,
        ...(mode ? { mode } : {}),
        ...(scope ? { scope } : {}),
      }),
    'webSearch.settings': async () => core.web.settings.current,
    'webSearch.configure': (change) =>
      core.web.settings.update(Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined))),
    'library.addFromWeb': ({ url }) => core.web.addPdf(url),
    'ocr.settings': async () => core.ocrSettings.view(),
    'ocr.configure': (change) => core.ocrSettings.update(change),
    'pages.get': ({ documentId, page, size }, signal) => readPageImage(core, documentId, page, size, signal),
    'pages.text': ({ documentId, page }, signal) => readPageText(core, documentId, page, signal),
    'pages.words': ({ documentId, page }, signal) => readPageWords(core, documentId, page, signal),
    'pages.openExternal': ({ documentId }) => openExternally(core, documentId),
    'models.status': async () => core.models.status(),
    'models.refresh': () => core.models.refresh(),
    'models.download': async ({ model }) => core.models.download(model),
    'models.recommend': () => core.setup.propose(),
    'models.setup': async ({ roles }) => {
      const proposal = await core.setup.propose();
      await core.setup.checkHosts(proposal, roles);
      return { downloads: core.setup.start(proposal, roles).downloads };
    },
    'models.dismissSetup': () => core.modelSettings.dismissSetup(),
    'models.pauseDownload': async ({ downloadId }) => core.models.pauseDownload(downloadId),
    'models.resumeDownload': async ({ downloadId }) => core.models.resumeDownload(downloadId),
    'models.cancelDownload': ({ downloadId }) => core.models.cancelDownload(downloadId),
    'models.settings': async () => core.modelSettings.current,
    'models.chooseRole': ({ role, choice }) => core.modelSettings.chooseRole(role, choice),
    'models.setServers': ({ servers }) => core.modelSettings.setServers(servers),
    'memory.budget': async () => core.memory.budget,
    'chat.ask': ({ question, conversationId, clarify, reviewPlan, scope }) =>
      core.agent.ask(question, conversationId, {
        clarify,
        reviewPlan,
        ...(scope !== undefined ? { scope } : {}),
      }),
    'chat.clarify': ({ conversationId, runId, choice }) => core.agent.clarify(conversationId, runId, choice),
    'chat.approvePlan': ({ conversationId, runId, subQuestions }) =>
      core.agent.approvePlan(conversationId, runId, subQuestions),
    'chat.cancel': async ({ runId }) => {
      core.agent.cancel(runId);
      return null;
    },
    'chat.conversations': () => core.agent.conversations(),
    'chat.conversation': ({ conversationId }) => core.agent.conversation(conversationId),
    'chat.trace': ({ runId }) => core.agent.trace(runId),
    'collections.list': async () => core.index.collections.list(),
    'collections.create': ({ name }) => core.index.collections.create(name),
    'collections.rename': ({ name, to }) => core.index.collections.rename(name, to),
    'collections.delete': async ({ name }) => {
      await core.index.collections.delete(name);
      return null;
    },
    // A path must hold library documents now: nothing outside the library gets into a collection.
    'collections.add': ({ name, paths }) => {
      core.index.search.resolveScope({ paths });
      return core.index.collections.add(name, paths);
    },
    'collections.remove': ({ name, paths }) => core.index.collections.remove(name, paths),
    'location.current': () => core.location.view(),
    'location.save': ({ setting }) => core.location.save(setting),
    'updates.status': async () => core.updates.status(),
    'updates.setEnabled': ({ enabled }) => core.updates.setEnabled(enabled),
    'updates.check': () => core.updates.check(),
    'updates.download': () => core.updates.download(),
    'mcpSharing.status': async () => core.mcpSharing.status(),
    'mcpSharing.setEnabled': ({ enabled }) => core.mcpSharing.setEnabled(enabled),
    'updates.install': async () => {
      core.updates.install();
      return null;
    },
  };
}
