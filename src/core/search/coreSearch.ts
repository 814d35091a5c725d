import type { CoreServices } from '../coreServices';
import type { ChunkSearchDeps } from './chunkSearch';

/** Text search over the core's index, with the embed role and advice the notices speak of. */
export function chunkSearchDeps(core: Pick<CoreServices, 'index' | 'models'>): ChunkSearchDeps {
  return {
    search: (query, { documentIds, scope, ...options }) =>
      core.index.search.chunks(query, {
        ...options,
        // The scope comes resolved: one question resolves it once.
        filter: { ...(documentIds ? { documentIds } : {}), ...(scope ? { resolvedScope: scope } : {}) },
      }),
    textVectors: () => core.index.vectors.status().text,
    embedRole: () => core.models.status().roles.find((role) => role.role === 'embed')!,
    embedAdvice: () => core.models.advice('embed'),
  };
}
