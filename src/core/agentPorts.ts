import { QuireError } from '../shared/errors';
import type { AgentPorts, OutlineEntry } from './agent/ports';
import { abortable } from './common/abortable';
import type { CoreServices } from './coreServices';
import { readPdfOutline } from './documents/pdf/pdfOutline';
import { openPageImage } from './pages/readPageImage';
import type { ModelRoles } from './models/types';
import { searchChunks } from './search/chunkSearch';
import { chunkSearchDeps } from './search/coreSearch';

/** Outlines kept per content hash: reading one opens the whole PDF. */
const OUTLINES_KEPT = 16;

/** The agent's view of core: search, open and read pages, list the library, reach the models. */
export function createAgentPorts(core: CoreServices, models: Pick<ModelRoles, 'chatModel'>): AgentPorts {
  const notFoundIsNull = <T>(work: Promise<T>): Promise<T | null> =>
    work.catch((error: unknown) => {
      if (error instanceof QuireError && error.code === 'not_found') return null;
      throw error;
    });
  const outlines = new Map<string, Promise<OutlineEntry[]>>();
  const outlineOf = (path: string, contentHash: string): Promise<OutlineEntry[]> => {
    let outline = outlines.get(contentHash);
    if (!outline) {
      // An encrypted PDF is not opened here (its password stays with ingestion): it has no outline to offer.
      outline = readPdfOutline(path);
      outlines.set(contentHash, outline);
      outline.catch(() => outlines.delete(contentHash));
      if (outlines.size > OUTLINES_KEPT) outlines.delete(outlines.keys().next().value!);
    }
    return outline;
  };
  return {
    searchChunks: async (query, options, signal) =>
      (
        await searchChunks(chunkSearchDeps(core), query, {
          k: options.k,
          ...(options.mode ? { mode: options.mode } : {}),
          ...(options.documentIds ? { documentIds: options.documentIds } : {}),
          ...(options.scope ? { scope: core.index.search.resolveScope(options.scope) } : {}),
          ...(signal ? { signal } : {}),
        })
      ).hits,
    retrieve: (query, options, signal) =>
      core.retrieval.search(query, { ...options, ...(signal ? { signal } : {}) }),
    searchPages: (query, options, signal) =>
      core.index.search.pages(query, {
        k: options.k,
        ...(options.scope ? { filter: { scope: options.scope } } : {}),
        ...(signal ? { signal } : {}),
      }),
    searchDocuments: (query, options, signal) =>
      core.index.search.documents(query, {
        ...(options.scope ? { filter: { scope: options.scope } } : {}),
        ...(options.related ? { related: true } : {}),
        ...(signal ? { signal } : {}),
      }),
    resolveScope: (scope) => core.index.search.resolveScope(scope),
    openChunk: (chunkId) => notFoundIsNull(core.index.content.chunk(chunkId)),
    openPage: (documentId, page) => notFoundIsNull(core.index.content.page(documentId, page)),
    documentOutline: async (documentId, signal) => {
      const document = core.index.documents.get(documentId);
      if (document?.kind !== 'pdf' || !document.contentHash || document.state !== 'indexed') return [];
      return abortable(outlineOf(document.path, document.contentHash), signal);
    },
    // The viewer's way to a page image: a page not drawn yet is drawn now, ahead of background work.
    pageImage: async (documentId, page) => {
      const opened = await notFoundIsNull(openPageImage(core, documentId, page, 'full'));
      if (!opened) return null;
      return { image: opened.bytes, pageWidth: opened.image.pageWidth, pageHeight: opened.image.pageHeight };
    },
    libraryRoots: async () => core.library.rootPaths(),
    libraryDocuments: async () => core.library.snapshot().documents,
    models,
    webSearch: () => core.web.provider(),
  };
}
