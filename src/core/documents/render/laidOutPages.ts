import type { DocumentKind } from '../../../shared/domain/library';
import type { PageTextLine } from '../../../shared/domain/pages';
import { QuireError } from '../../../shared/errors';
import type { PageLayout } from '../layout/model';
import { isLaidOutKind, isStructuredKind } from '../documentKinds';
import { readStructure } from '../readers/structuredReaders';
import { paginate } from '../structure/paginate';
import { textFileLayouts } from '../text/parseText';
import type { DrawablePage } from './laidOutRaster';

/**
 * The laid-out pages of a document, read again from the file: layout is a pure function of the
 * file's content, so these are the pages the index holds, with the same boxes.
 */
export async function laidOutPages(
  path: string,
  kind: DocumentKind,
  signal?: AbortSignal,
): Promise<DrawablePage[]> {
  if (kind === 'markdown' || kind === 'text') return (await textFileLayouts(path, kind)).map(fromTextLayout);
  if (!isLaidOutKind(kind) || !isStructuredKind(kind)) {
    throw new QuireError('invalid_input', `Pages of ${kind} documents are not laid out by Quire.`);
  }
  return paginate((await readStructure(path, kind, signal)).units);
}

/** Text and Markdown pages sit on a monospace grid; their lines become drawable lines. */
function fromTextLayout(layout: PageLayout): DrawablePage {
  const lines: PageTextLine[] = layout.blocks.flatMap((block) =>
    block.lines.map((line) => ({
      style: block.kind === 'heading' ? ('h4' as const) : ('body' as const),
      text: line.text,
      box: line.box,
    })),
  );
  return { width: layout.width, height: layout.height, lines };
}

/** One laid-out page, for the text view. */
export async function laidOutPage(path: string, kind: DocumentKind, page: number): Promise<DrawablePage> {
  const pages = await laidOutPages(path, kind);
  const found = pages[page - 1];
  if (!found)
    throw new QuireError('not_found', `Page ${page} does not exist: the document has ${pages.length} pages.`);
  return found;
}
