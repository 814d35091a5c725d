import { readFile } from 'node:fs/promises';
import { QuireError } from '../shared/errors';
import type { AgentPorts } from './agent/ports';
import type { CoreServices } from './coreServices';
import type { ModelRoles } from './models/types';

/** The agent's view of core: search, open and read pages, list the library, reach the models. */
export function createAgentPorts(core: CoreServices, models: Pick<ModelRoles, 'chatModel'>): AgentPorts {
  const notFoundIsNull = <T>(work: Promise<T>): Promise<T | null> =>
    work.catch((error: unknown) => {
      if (error instanceof QuireError && error.code === 'not_found') return null;
      throw error;
    });
  return {
    searchChunks: (query, options, signal) =>
      core.index.search.chunks(query, {
        k: options.k,
        ...(options.mode ? { mode: options.mode } : {}),
        ...(options.documentIds ? { filter: { documentIds: options.documentIds } } : {}),
        ...(signal ? { signal } : {}),
      }),
    retrieve: (query, options, signal) =>
      core.retrieval.search(query, { ...options, ...(signal ? { signal } : {}) }),
    searchPages: (query, options, signal) =>
      core.index.search.pages(query, { k: options.k, ...(signal ? { signal } : {}) }),
    openChunk: (chunkId) => notFoundIsNull(core.index.content.chunk(chunkId)),
    openPage: (documentId, page) => notFoundIsNull(core.index.content.page(documentId, page)),
    pageImage: async (documentId, page) => {
      const stored = await notFoundIsNull(core.index.content.page(documentId, page));
      if (!stored?.image) return null;
      return new Uint8Array(await readFile(core.pageImages.absolutePath(stored.image.full)));
    },
    libraryRoots: async () => core.library.rootPaths(),
    libraryDocuments: async () => core.library.snapshot().documents,
    models,
    webSearch: () => core.web.provider(),
  };
}
