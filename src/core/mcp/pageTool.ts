/*
 * read_page: one page's text and its image, for a model that wants to check what a search hit says
 * or look at a table or a figure. The image is the one the viewer shows; a region is cut out of it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { QuireError } from '../../shared/errors';
import { cropToRegion } from '../agent/tools/pageRegion';
import { openPageImage } from '../pages/readPageImage';
import { documentAt, type LibraryCore } from './libraryAccess';
import { guarded, MAX_RESULT_CHARS } from './toolResults';

export interface PageContent {
  path: string;
  page: number;
  pages: number | null;
  text: string;
  /** Base64; null when the page has no image (a text file, or images are off). */
  image: { data: string; mimeType: string } | null;
  /** Why there is no image, in words for the model. */
  imageNote: string | null;
}

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A page's text and image by document id, as both read_page and the page resources give it. */
export async function readPage(
  core: LibraryCore,
  documentId: string,
  page: number,
  region?: Region,
): Promise<Omit<PageContent, 'path' | 'pages'>> {
  const stored = await core.index.content.page(documentId, page);
  let image: PageContent['image'] = null;
  let imageNote: string | null = null;
  try {
    const file = await openPageImage(core, documentId, page, 'full');
    if (region) {
      const cut = await cropToRegion(
        file.bytes,
        { width: file.image.pageWidth, height: file.image.pageHeight },
        region,
      );
      if (!cut) throw new QuireError('invalid_input', 'The region lies outside the page.');
      image = { data: Buffer.from(cut).toString('base64'), mimeType: 'image/png' };
    } else {
      image = { data: Buffer.from(file.bytes).toString('base64'), mimeType: file.contentType };
    }
  } catch (error) {
    if (error instanceof QuireError && error.code === 'invalid_input') throw error;
    imageNote = error instanceof Error ? error.message : String(error);
  }
  return { page, text: stored.text, image, imageNote };
}

export function registerPageTool(server: McpServer, core: LibraryCore): void {
  server.registerTool(
    'read_page',
    {
      title: 'Read a page',
      description:
        'Returns one page of a library document: its text and an image of the page as Quire drew it (tables, ' +
        'figures and layout are visible in the image). Pages are numbered from 1, as search hits give them. ' +
        'Give a region (in PDF points from the top-left of the page) to get a closer image of part of the page.',
      inputSchema: {
        path: z.string().min(1).max(4096).describe('The document, as search or library gives its path.'),
        page: z.number().int().min(1).max(100_000).describe('The page number, from 1.'),
        region: z
          .object({
            x: z.number().min(0),
            y: z.number().min(0),
            width: z.number().positive(),
            height: z.number().positive(),
          })
          .optional()
          .describe('Part of the page to look at closer, in points from the top-left corner.'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const doc = await documentAt(core, args.path);
        if (doc.state !== 'indexed')
          throw new QuireError('not_found', `${doc.path} is not indexed yet (${doc.state}).`);
        if (doc.pages !== null && args.page > doc.pages)
          throw new QuireError(
            'not_found',
            `${doc.path} has ${doc.pages} pages; there is no page ${args.page}.`,
          );
        const read = await readPage(core, doc.id, args.page, args.region);
        const cut = read.text.length > MAX_RESULT_CHARS;
        const text = cut
          ? `${read.text.slice(0, MAX_RESULT_CHARS)}\n(cut: the page's text goes on for ${read.text.length - MAX_RESULT_CHARS} more characters)`
          : read.text;
        const head = `${doc.path}, page ${args.page} of ${doc.pages ?? '?'}:`;
        const note = read.imageNote ? `\n(No image: ${read.imageNote})` : '';
        return {
          content: [
            { type: 'text', text: `${head}\n${text || '(no text on this page)'}${note}` },
            ...(read.image ? [{ type: 'image' as const, ...read.image }] : []),
          ],
        };
      }),
  );
}
