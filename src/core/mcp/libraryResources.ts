/*
 * Every indexed document and each of its pages as a quire:// resource: a document reads as its text,
 * a page as its text and its image. The listing comes in pages (a cursor), since a library may hold
 * tens of thousands of pages; clients hear `list_changed` when documents come or go.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListResourcesRequestSchema, type Resource } from '@modelcontextprotocol/sdk/types.js';
import type { DocumentInfo } from '../../shared/domain/library';
import { QuireError } from '../../shared/errors';
import type { Core } from '../createCore';
import type { LibraryCore } from './libraryAccess';
import { readPage } from './pageTool';
import { MAX_RESULT_CHARS } from './toolResults';

/** Resources per listing page. */
export const RESOURCES_PER_PAGE = 200;

const documentUri = (doc: DocumentInfo) => `quire://documents/${encodeURIComponent(doc.id)}`;
const pageUri = (doc: DocumentInfo, page: number) => `${documentUri(doc)}/pages/${page}`;

/** The n-th resource of the library in listing order (each document, then its pages), and how many there are. */
function listing(
  docs: readonly DocumentInfo[],
  start: number,
  count: number,
): { items: Resource[]; total: number } {
  const items: Resource[] = [];
  let index = 0;
  for (const doc of docs) {
    const pages = doc.pages ?? 0;
    const span = 1 + pages;
    if (index + span <= start || items.length >= count) {
      index += span;
      continue;
    }
    for (let i = 0; i < span; i += 1, index += 1) {
      if (index < start || items.length >= count) continue;
      items.push(
        i === 0
          ? {
              uri: documentUri(doc),
              name: doc.relativePath,
              title: doc.relativePath,
              description: `${doc.kind}, ${pages} pages: ${doc.path}`,
              mimeType: 'text/plain',
            }
          : {
              uri: pageUri(doc, i),
              name: `${doc.relativePath} p.${i}`,
              title: `${doc.relativePath}, page ${i}`,
              mimeType: 'text/plain',
            },
      );
    }
  }
  return { items, total: index };
}

function indexedDocuments(core: LibraryCore): DocumentInfo[] {
  return core.library.snapshot().documents.filter((d) => d.state === 'indexed');
}

function documentById(core: LibraryCore, id: string): DocumentInfo {
  const doc = indexedDocuments(core).find((d) => d.id === id);
  if (!doc) throw new QuireError('not_found', 'That document is not in the library (or not indexed yet).');
  return doc;
}

function cursorStart(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const start = Number(Buffer.from(cursor, 'base64url').toString());
  if (!Number.isInteger(start) || start < 0)
    throw new QuireError('invalid_input', 'Not a cursor this server gave.');
  return start;
}

export function registerLibraryResources(server: McpServer, core: LibraryCore): void {
  server.registerResource(
    'document',
    new ResourceTemplate('quire://documents/{id}', { list: undefined }),
    {
      title: 'A library document',
      description: 'The text of a document, page by page.',
      mimeType: 'text/plain',
    },
    async (uri, { id }) => {
      const doc = documentById(core, decodeURIComponent(String(id)));
      const parts: string[] = [];
      let used = 0;
      for (let page = 1; page <= (doc.pages ?? 0) && used < MAX_RESULT_CHARS; page += 1) {
        const stored = await core.index.content.page(doc.id, page).catch(() => null);
        const text = `--- page ${page} ---\n${stored?.text ?? ''}`;
        parts.push(text);
        used += text.length;
      }
      let text = parts.join('\n');
      if (text.length > MAX_RESULT_CHARS)
        text = `${text.slice(0, MAX_RESULT_CHARS)}\n(cut: read the pages' own resources for the rest)`;
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
    },
  );
  server.registerResource(
    'page',
    new ResourceTemplate('quire://documents/{id}/pages/{page}', { list: undefined }),
    { title: 'A page of a library document', description: "A page's text and its image." },
    async (uri, { id, page }) => {
      const doc = documentById(core, decodeURIComponent(String(id)));
      const number = Number(page);
      if (!Number.isInteger(number) || number < 1 || number > (doc.pages ?? 0))
        throw new QuireError('not_found', `${doc.relativePath} has no page ${String(page)}.`);
      const read = await readPage(core, doc.id, number);
      return {
        contents: [
          { uri: uri.href, mimeType: 'text/plain', text: read.text },
          ...(read.image ? [{ uri: uri.href, mimeType: read.image.mimeType, blob: read.image.data }] : []),
        ],
      };
    },
  );
  // The SDK's own listing has no cursor: this one replaces it, in pages of RESOURCES_PER_PAGE.
  server.server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    const start = cursorStart(request.params?.cursor);
    const { items, total } = listing(indexedDocuments(core), start, RESOURCES_PER_PAGE);
    const next = start + items.length;
    return {
      resources: items,
      ...(next < total ? { nextCursor: Buffer.from(String(next)).toString('base64url') } : {}),
    };
  });
}

/**
 * Tells the client when documents come or go (not on every indexing step); returns the unsubscribe.
 * A burst of changes (a folder added) is told once.
 */
export function announceListChanges(server: McpServer, core: Pick<Core, 'events' | 'library'>): () => void {
  const key = () =>
    core.library
      .snapshot()
      .documents.filter((d) => d.state === 'indexed')
      .map((d) => `${d.id}:${d.pages ?? 0}`)
      .sort()
      .join('|');
  let last = key();
  let timer: NodeJS.Timeout | null = null;
  const off = core.events.on('library.onChanged', () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      const now = key();
      if (now === last || !server.isConnected()) return;
      last = now;
      server.sendResourceListChanged();
    }, 500);
    timer.unref();
  });
  return () => {
    off();
    if (timer) clearTimeout(timer);
  };
}
