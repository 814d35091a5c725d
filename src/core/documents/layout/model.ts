import type { BoundingBox } from '../../../shared/domain/search';

/*
 * The reader-independent page layout: every format (PDF, Markdown, plain text) is reduced to blocks of
 * positioned lines, and everything downstream (page text, chunking) works on this shape only.
 */

export type BlockKind = 'heading' | 'paragraph' | 'list' | 'table';

export interface LayoutLine {
  /** The line's text; table cells are separated by a tab. */
  text: string;
  box: BoundingBox;
}

export interface LayoutBlock {
  kind: BlockKind;
  lines: LayoutLine[];
}

export interface PageLayout {
  /** 1-based. */
  page: number;
  width: number;
  height: number;
  blocks: LayoutBlock[];
}

export function unionBox(boxes: readonly BoundingBox[]): BoundingBox {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const box of boxes) {
    left = Math.min(left, box.x);
    top = Math.min(top, box.y);
    right = Math.max(right, box.x + box.width);
    bottom = Math.max(bottom, box.y + box.height);
  }
  if (left === Infinity) return { x: 0, y: 0, width: 0, height: 0 };
  return { x: left, y: top, width: right - left, height: bottom - top };
}

export function countWords(text: string): number {
  const matches = text.match(/\S+/g);
  return matches ? matches.length : 0;
}

/**
 * The font size that carries the most letters among `texts`, sizes rounded by `round`; `fallback`
 * when there are none.
 */
export function sizeCarryingMostText(
  texts: Iterable<{ fontSize: number; text: string }>,
  fallback: number,
  round: (size: number) => number = (size) => size,
): number {
  const weights = new Map<number, number>();
  for (const { fontSize, text } of texts) {
    const size = round(fontSize);
    weights.set(size, (weights.get(size) ?? 0) + text.length);
  }
  let best = fallback;
  let bestWeight = -1;
  for (const [size, weight] of weights) {
    if (weight > bestWeight) {
      best = size;
      bestWeight = weight;
    }
  }
  return best;
}
