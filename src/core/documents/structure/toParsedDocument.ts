import type { DocumentKind } from '../../../shared/domain/library';
import { chunkPages, DEFAULT_CHUNKING, type ChunkingOptions } from '../layout/chunker';
import type { LayoutBlock, PageLayout } from '../layout/model';
import { placePageText } from '../layout/pageText';
import type { ParsedDocument } from '../types';
import type { StructuredDocument } from './model';
import { paginate, type PagePlan } from './paginate';

/** A structured document laid out on pages, with its chunks: what the index stores. */
export function toParsedDocument(
  kind: DocumentKind,
  document: StructuredDocument,
  chunking: ChunkingOptions = DEFAULT_CHUNKING,
): ParsedDocument {
  const plans = paginate(document.units);
  const placed = plans.map((plan) => placePageText(toPageLayout(plan)));
  return {
    kind,
    title: document.title,
    pages: placed.map(({ page, width, height, text }) => ({
      page,
      width,
      height,
      text,
      needsOcr: false,
      textSource: text.trim() === '' ? { method: 'none' as const } : { method: 'layer' as const },
    })),
    chunks: chunkPages(placed, chunking),
  };
}

/** The chunker's view of a planned page: blocks of lines with boxes. */
export function toPageLayout(plan: PagePlan): PageLayout {
  const blocks: LayoutBlock[] = [];
  let current: { index: number; block: LayoutBlock } | null = null;
  for (const line of plan.lines) {
    if (!current || current.index !== line.block) {
      current = { index: line.block, block: { kind: line.blockKind, lines: [] } };
      blocks.push(current.block);
    }
    current.block.lines.push({ text: line.text, box: line.box });
  }
  return { page: plan.page, width: plan.width, height: plan.height, blocks };
}
