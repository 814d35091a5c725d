/*
 * In-memory stand-ins for the index and the library over a small fixed set of documents, so agent tests
 * know exactly what every search returns.
 */
import type { AgentPorts, OpenedChunk } from '../../src/core/agent/ports';
import type { DocumentInfo } from '../../src/shared/domain/library';
import type { Scope } from '../../src/shared/domain/scope';
import type { SearchHit } from '../../src/shared/domain/search';

export interface FakePage {
  documentId: string;
  path: string;
  page: number;
  /** One chunk per paragraph. */
  paragraphs: string[];
}

export const FIXED_PAGES: FakePage[] = [
  {
    documentId: 'doc-handbook',
    path: '/library/handbook.pdf',
    page: 1,
    paragraphs: [
      'The Orbit 3 controller supports a maximum payload of 12 kg.',
      'Firmware updates are installed with the orbit-flash command while the arm is parked.',
    ],
  },
  {
    documentId: 'doc-handbook',
    path: '/library/handbook.pdf',
    page: 2,
    paragraphs: ['Calibration runs every 30 days. The calibrate_arm routine takes about 4 minutes.'],
  },
  {
    documentId: 'doc-safety',
    path: '/library/safety.pdf',
    page: 1,
    paragraphs: [
      'Operators must wear eye protection near the arm.',
      'The emergency stop halts all motors within 200 ms of being pressed.',
    ],
  },
  {
    documentId: 'doc-safety',
    path: '/library/safety.pdf',
    page: 2,
    paragraphs: ['Keep a clearance of 1.5 m around the arm while it moves.'],
  },
];

/** Two years of one company's filings: "Amcor net sales" reads two ways against this library. */
export const AMCOR_FILINGS: FakePage[] = [
  {
    documentId: 'amcor-22',
    path: '/library/AMCOR_2022_10K.pdf',
    page: 1,
    paragraphs: ['Amcor net sales were 14.5 billion.'],
  },
  {
    documentId: 'amcor-23',
    path: '/library/AMCOR_2023_10K.pdf',
    page: 1,
    paragraphs: ['Amcor net sales were 14.7 billion.'],
  },
];

type FakeChunk = OpenedChunk;

function chunksOf(pages: FakePage[]): FakeChunk[] {
  return pages.flatMap((p) =>
    p.paragraphs.map((text, i) => ({
      chunkId: `${p.documentId}:p${p.page}:c${i}`,
      documentId: p.documentId,
      path: p.path,
      page: p.page,
      text,
      boxes: [{ x: 50, y: 100 + i * 40, width: 400, height: 30 }],
    })),
  );
}

const words = (text: string) => text.toLowerCase().match(/[a-z0-9_]+/g) ?? [];

export interface FakePortsOptions {
  models: AgentPorts['models'];
  pages?: FakePage[];
  roots?: string[];
  /** Replaces searchChunks, e.g. to make it throw. */
  searchChunks?: AgentPorts['searchChunks'];
  pageSearch?: boolean;
  /** The documents' outlines; absent means the ports cannot read outlines. */
  documentOutline?: AgentPorts['documentOutline'];
  /** Replaces the page images (a four-byte stand-in on a Letter page otherwise). */
  pageImage?: AgentPorts['pageImage'];
}

export interface FakePorts extends AgentPorts {
  calls: {
    searchChunks: string[];
    openChunk: string[];
    openPage: string[];
    /** The scope each search was given (null: none). */
    scopes: Array<Scope | null>;
  };
}

export function fakePorts(options: FakePortsOptions): FakePorts {
  const pages = options.pages ?? FIXED_PAGES;
  const chunks = chunksOf(pages);
  const calls: FakePorts['calls'] = { searchChunks: [], openChunk: [], openPage: [], scopes: [] };
  // A scope's documents are its ids and the documents under its paths; collections are not faked.
  const inScope = (scope: Scope | undefined) => {
    if (!scope) return null;
    const ids = new Set(scope.documents ?? []);
    for (const p of pages)
      if ((scope.paths ?? []).some((path) => p.path.startsWith(path))) ids.add(p.documentId);
    return ids;
  };
  const score = (query: string, text: string) => {
    const have = new Set(words(text));
    return words(query).filter((w) => have.has(w)).length;
  };
  const documents: DocumentInfo[] = [...new Map(pages.map((p) => [p.documentId, p])).values()].map((p) => ({
    id: p.documentId,
    rootId: 'root',
    path: p.path,
    relativePath: p.path.split('/').at(-1)!,
    kind: 'pdf',
    bytes: 1000,
    modifiedMs: 0,
    pages: pages.filter((q) => q.documentId === p.documentId).length,
    state: 'indexed',
    error: null,
  }));
  return {
    calls,
    models: options.models,
    searchChunks:
      options.searchChunks ??
      (async (query, { k, documentIds, scope }) => {
        calls.searchChunks.push(query);
        calls.scopes.push(scope ?? null);
        const admitted = inScope(scope);
        return chunks
          .filter((c) => !documentIds || documentIds.includes(c.documentId))
          .filter((c) => !admitted || admitted.has(c.documentId))
          .map((c) => ({ c, s: score(query, c.text) }))
          .filter(({ s }) => s > 0)
          .sort((a, b) => b.s - a.s)
          .slice(0, k)
          .map(({ c, s }): SearchHit => ({
            documentId: c.documentId,
            path: c.path,
            page: c.page,
            chunkId: c.chunkId,
            score: s,
            snippet: c.text.slice(0, 60),
            boxes: c.boxes,
            mode: 'hybrid',
          }));
      }),
    searchPages: async (query, { k }) => {
      if (!options.pageSearch) {
        const { QuireError } = await import('../../src/shared/errors');
        throw new QuireError('unsupported', 'No page embedder.');
      }
      return pages
        .map((p) => ({ p, s: score(query, p.paragraphs.join(' ')) }))
        .filter(({ s }) => s > 0)
        .sort((a, b) => b.s - a.s)
        .slice(0, k)
        .map(({ p, s }) => ({
          documentId: p.documentId,
          path: p.path,
          page: p.page,
          chunkId: null,
          score: s,
          snippet: p.paragraphs[0]!.slice(0, 60),
          boxes: [],
          mode: 'pages' as const,
        }));
    },
    openChunk: async (chunkId) => {
      calls.openChunk.push(chunkId);
      return chunks.find((c) => c.chunkId === chunkId) ?? null;
    },
    openPage: async (documentId, page) => {
      calls.openPage.push(`${documentId}#${page}`);
      const found = pages.find((p) => p.documentId === documentId && p.page === page);
      return found ? { documentId, path: found.path, page, text: found.paragraphs.join('\n') } : null;
    },
    pageImage:
      options.pageImage ??
      (async () => ({
        image: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
        pageWidth: 612,
        pageHeight: 792,
      })),
    libraryRoots: async () => options.roots ?? [],
    libraryDocuments: async () => documents,
    searchDocuments: async (query, { scope }) => {
      calls.scopes.push(scope ?? null);
      const admitted = inScope(scope);
      const byDocument = new Map<string, { matches: number; page: number; snippet: string; path: string }>();
      for (const c of chunks) {
        if ((admitted && !admitted.has(c.documentId)) || score(query, c.text) === 0) continue;
        const entry = byDocument.get(c.documentId);
        if (entry) entry.matches++;
        else byDocument.set(c.documentId, { matches: 1, page: c.page, snippet: c.text, path: c.path });
      }
      return [...byDocument].map(([documentId, e]) => ({ documentId, ...e, forms: [query.toLowerCase()] }));
    },
    resolveScope: (scope) => {
      const admitted = inScope(scope ?? undefined);
      if (admitted && admitted.size === 0) throw new Error('Nothing to search in this scope.');
      return {
        documentIds: admitted,
        searched: admitted ? `${admitted.size} document(s)` : 'the whole library',
        missing: [],
      };
    },
    ...(options.documentOutline ? { documentOutline: options.documentOutline } : {}),
  };
}
