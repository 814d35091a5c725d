/*
 * A run's view of core inside its scope: every search carries the scope to the index (where it
 * filters before ranking), and the document list, pages and files outside it are not there.
 */
import type { Scope } from '../../shared/domain/scope';
import { isWholeLibrary } from '../../shared/domain/scopeText';
import type { AgentPorts } from './ports';

export function scopedPorts(ports: AgentPorts, scope: Scope | null | undefined): AgentPorts {
  if (!scope || isWholeLibrary(scope) || !ports.resolveScope) return ports;
  // Resolved at each use: a document added to a scoped folder mid-run is inside it.
  const admitted = () => ports.resolveScope!(scope).documentIds;
  const retrieve = ports.retrieve;
  const searchDocuments = ports.searchDocuments;
  return {
    ...ports,
    searchChunks: (query, options, signal) => ports.searchChunks(query, { ...options, scope }, signal),
    ...(retrieve
      ? { retrieve: (query, options, signal) => retrieve(query, { ...options, scope }, signal) }
      : {}),
    searchPages: (query, options, signal) => ports.searchPages(query, { ...options, scope }, signal),
    ...(searchDocuments
      ? { searchDocuments: (query, options, signal) => searchDocuments(query, { ...options, scope }, signal) }
      : {}),
    openPage: async (documentId, page) =>
      admitted()?.has(documentId) ? ports.openPage(documentId, page) : null,
    openChunk: async (chunkId) => {
      const chunk = await ports.openChunk(chunkId);
      return chunk && admitted()?.has(chunk.documentId) ? chunk : null;
    },
    libraryDocuments: async () => {
      const ids = admitted();
      return (await ports.libraryDocuments()).filter((d) => ids?.has(d.id));
    },
    scopeLabel: () => ports.resolveScope!(scope).searched,
    scopePaths: async () => {
      const ids = admitted();
      return new Set((await ports.libraryDocuments()).filter((d) => ids?.has(d.id)).map((d) => d.path));
    },
  };
}
