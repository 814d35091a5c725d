/*
 * The read-only tools over the index: search, find_documents and library. Each reads through the same
 * contract calls the CLI and the app use, so an MCP client sees what they see.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Collection, DocumentsResult } from '../../shared/domain/scope';
import { SearchMode, type SearchResult } from '../../shared/domain/search';
import { QuireError } from '../../shared/errors';
import type { CallResult } from '../../shared/ipc/contract';
import { isInside } from '../common/paths';
import { scopeOf, type LibraryCore } from './libraryAccess';
import { fitLines, guarded, shorten, structured } from './toolResults';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const inPaths = z
  .array(z.string().min(1).max(4096))
  .max(100)
  .optional()
  .describe(
    'Only these files or folders of the library (absolute paths, or relative to a library folder). Leave out for the whole library.',
  );
const collection = z
  .string()
  .min(1)
  .max(120)
  .optional()
  .describe('Only the documents of this saved collection (see the library tool for their names).');

/** A contract call's value, or its failure thrown as the QuireError it was. */
async function unwrap<T>(result: Promise<CallResult<unknown>>): Promise<T> {
  const settled = await result;
  if (!settled.ok) throw new QuireError(settled.error.code, settled.error.message);
  return settled.value as T;
}

export function registerLibraryTools(server: McpServer, core: LibraryCore): void {
  server.registerTool(
    'search',
    {
      title: 'Search the library',
      description:
        "Finds the passages of the user's documents (PDFs, Word, slides, text…) that best match a query, ranked. " +
        'Each hit gives the file path, the 1-based page, a snippet and a score. Use it to locate evidence, then ' +
        'read_page for the whole page. Prefer keywords and names over whole sentences for exact terms.',
      inputSchema: {
        query: z.string().min(1).max(2000).describe('What to look for: keywords, a name, or a question.'),
        k: z.number().int().min(1).max(50).default(10).describe('How many hits to return (1-50).'),
        mode: SearchMode.optional().describe(
          'bm25: exact words; dense: meaning (needs an embedding model); hybrid: both (the default when vectors exist); pages: page images.',
        ),
        in: inPaths,
        collection,
      },
      outputSchema: {
        hits: z.array(
          z.object({ path: z.string(), page: z.number(), snippet: z.string(), score: z.number() }),
        ),
        searched: z.string(),
        notes: z.array(z.string()),
        cut: z.number().describe('Hits left out to keep the result small.'),
      },
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(async () => {
        const scope = await scopeOf(core, args.in, args.collection ? [args.collection] : undefined);
        const found = await unwrap<SearchResult>(
          core.dispatch('search.retrieve', {
            query: args.query,
            k: args.k,
            ...(args.mode ? { mode: args.mode } : {}),
            ...(scope ? { scope } : {}),
          }),
        );
        const hits = found.hits.map((hit) => ({
          path: hit.path,
          page: hit.page,
          snippet: shorten(hit.snippet),
          score: Number(hit.score.toFixed(4)),
        }));
        const searched = found.searched ?? 'the whole library';
        const { kept, text, cut } = fitLines(
          hits,
          (hit) => `${hit.path} p.${hit.page} (score ${hit.score})\n  ${hit.snippet}`,
        );
        const head = `${hits.length === 0 ? 'No matches' : `${hits.length} hits`} in ${searched}.`;
        const notes = found.notes.length ? `\n${found.notes.map((n) => `Note: ${n}`).join('\n')}` : '';
        return structured(`${head}${notes}\n${text}`.trimEnd(), {
          hits: kept,
          searched,
          notes: found.notes,
          cut,
        });
      }),
  );

  server.registerTool(
    'find_documents',
    {
      title: 'Find documents by a term',
      description:
        'Lists every document whose text contains a term (not just the top few), with how many passages match ' +
        'and the page of the best one. Use it for "which files mention X" and to count coverage.',
      inputSchema: {
        term: z.string().min(1).max(2000).describe('The word or phrase to look for.'),
        in: inPaths,
      },
      outputSchema: {
        documents: z.array(
          z.object({ path: z.string(), matches: z.number(), firstPage: z.number(), snippet: z.string() }),
        ),
        searched: z.string(),
        cut: z.number(),
      },
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(async () => {
        const scope = await scopeOf(core, args.in, undefined);
        const found = await unwrap<DocumentsResult>(
          core.dispatch('search.documents', { query: args.term, ...(scope ? { scope } : {}) }),
        );
        const documents = found.documents.map((d) => ({
          path: d.path,
          matches: d.matches,
          firstPage: d.page,
          snippet: shorten(d.snippet, 200),
        }));
        const { kept, text, cut } = fitLines(
          documents,
          (d) => `${d.path}: ${d.matches} matching passage(s), first at p.${d.firstPage}\n  ${d.snippet}`,
        );
        const count = documents.length === 1 ? '1 document matches' : `${documents.length} documents match`;
        return structured(`${count} in ${found.searched}.\n${text}`.trimEnd(), {
          documents: kept,
          searched: found.searched,
          cut,
        });
      }),
  );

  server.registerTool(
    'library',
    {
      title: 'What the library holds',
      description:
        "The library's folders, its documents (path, type, pages, size, modified date, indexing and OCR state) " +
        'and its saved collections. Use it to see what can be searched or read, and the exact paths to pass to ' +
        'read_page or to `in`.',
      inputSchema: {
        folder: z
          .string()
          .min(1)
          .max(4096)
          .optional()
          .describe('Only the documents under this folder (absolute path).'),
      },
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(async () => {
        const snapshot = core.library.snapshot();
        const under = args.folder ? (await scopeOf(core, [args.folder], undefined))?.paths?.[0] : undefined;
        const documents = snapshot.documents
          .filter((d) => !under || isInside(d.path, under))
          .map((d) => ({
            path: d.path,
            type: d.kind,
            pages: d.pages,
            bytes: d.bytes,
            modified: new Date(d.modifiedMs).toISOString(),
            state: d.state,
            ocr: d.ocr
              ? {
                  pagesRead: d.ocr.pagesRead,
                  pagesUnreadable: d.ocr.pagesUnreadable,
                  pagesWaiting: d.ocr.pagesWaiting,
                }
              : null,
            ...(d.error ? { problem: d.error } : {}),
          }));
        const collections = (await unwrap<Collection[]>(core.dispatch('collections.list', {}))).map((c) => ({
          name: c.name,
          paths: c.paths,
        }));
        const folders = snapshot.roots.map((root) => ({
          path: root.path,
          ...(root.error ? { problem: root.error } : {}),
        }));
        const { kept, text, cut } = fitLines(documents, (d) => {
          const ocr =
            d.ocr && d.ocr.pagesRead + d.ocr.pagesUnreadable + d.ocr.pagesWaiting > 0
              ? `, OCR ${d.ocr.pagesRead} read/${d.ocr.pagesWaiting} waiting`
              : '';
          return `${d.path} (${d.type}, ${d.pages ?? '?'} pages, ${d.state}${ocr}, modified ${d.modified.slice(0, 10)})`;
        });
        const lines = [
          `Folders: ${folders.map((f) => f.path).join(', ') || 'none'}${snapshot.scanning ? ' (still scanning)' : ''}`,
          `Collections: ${collections.map((c) => `${c.name} (${c.paths.length})`).join(', ') || 'none'}`,
          `${documents.length} documents:`,
          text,
        ];
        return structured(lines.join('\n').trimEnd(), { folders, documents: kept, collections, cut });
      }),
  );
}
