import type { DocumentKind } from '../../../shared/domain/library';
import type { DrawablePage } from '../render/laidOutRaster';
import type { StructuredDocument } from '../structure/model';
import { paginate } from '../structure/paginate';
import { toParsedDocument } from '../structure/toParsedDocument';
import type { FormatReader } from './formatReader';

/** Reads a file into its units and blocks; the format's own module, loaded on first use. */
export type ReadStructure = (path: string, signal?: AbortSignal) => Promise<StructuredDocument>;

/**
 * A reader for a format without pages of its own (Word, slides, sheets, OpenDocument, web pages,
 * books): its units are laid out on pages once, in structure/paginate.ts, and the text index, the
 * drawn page and the text view all use that layout. Layout is a pure function of the file's content,
 * so the pages drawn later are the pages indexed, with the same boxes.
 */
export function laidOutReader(
  kind: DocumentKind,
  extensions: readonly string[],
  readStructure: ReadStructure,
): FormatReader {
  const layOut = async (path: string, signal?: AbortSignal): Promise<DrawablePage[]> =>
    paginate((await readStructure(path, signal)).units);
  return {
    kind,
    extensions,
    read: async (path, options) =>
      toParsedDocument(kind, await readStructure(path, options.signal), options.chunking),
    layOut,
    drawPages: async (path, options, store) =>
      (await import('../render/renderLaidOutPages')).renderLaidOutPages(path, layOut, options, store),
  };
}
