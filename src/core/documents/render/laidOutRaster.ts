import type { SKRSContext2D } from '@napi-rs/canvas';
import { createCanvas } from './canvas';
import { CELL_PADDING_X, CELL_PADDING_Y, LINE_STYLES } from '../../../shared/domain/pageLayout';
import type { PageTextLine } from '../../../shared/domain/pages';
import { rasterSizes, type PageRasters, type RasterPage } from './raster';

/*
 * Pages Quire laid out itself (Word, PowerPoint, Excel, OpenDocument, HTML, EPUB, Markdown, text)
 * drawn with Skia (@napi-rs/canvas, which also draws PDF pages for pdfjs): every line at its box, a
 * line wider than its box squeezed into it, so the image matches the boxes citations highlight.
 */

/** The fonts laid-out pages are drawn in; the viewer's word boxes are measured in the same. */
export const LAID_OUT_FONT =
  'Helvetica, Arial, "Liberation Sans", "DejaVu Sans", "Noto Sans", "PingFang SC", "Hiragino Sans", sans-serif';
const COLORS: Partial<Record<PageTextLine['style'], string>> = {
  label: '#6b7280',
  noteLabel: '#374151',
  note: '#374151',
  image: '#4b5563',
};

export interface DrawablePage {
  width: number;
  height: number;
  lines: readonly PageTextLine[];
}

export function drawLaidOutPage(page: DrawablePage, longEdge: number): PageRasters {
  const sizes = rasterSizes(page.width, page.height, longEdge);
  const full = draw(page, sizes.full.width, sizes.full.height, sizes.full.scale);
  const thumbnail = draw(page, sizes.thumbnail.width, sizes.thumbnail.height, sizes.thumbnail.scale);
  return { full, thumbnail };
}

function draw(page: DrawablePage, width: number, height: number, scale: number): RasterPage {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.scale(scale, scale);
  context.textBaseline = 'alphabetic';
  for (const line of page.lines) drawLine(context, line);
  return { pixels: new Uint8Array(canvas.data()), channels: 4, width, height };
}

function drawLine(context: SKRSContext2D, line: PageTextLine): void {
  const metrics = LINE_STYLES[line.style];
  const { x, y, width, height } = line.box;
  context.font = `${metrics.italic ? 'italic ' : ''}${metrics.bold ? 'bold ' : ''}${metrics.size}px ${LAID_OUT_FONT}`;
  context.fillStyle = COLORS[line.style] ?? '#111827';
  if (line.style === 'note' || line.style === 'noteLabel') {
    context.fillStyle = '#c7d2fe';
    context.fillRect(x - 6, y, 2, height);
    context.fillStyle = COLORS[line.style] ?? '#111827';
  }
  if (line.cells) {
    if (line.style === 'tableHeader') {
      context.fillStyle = '#f3f4f6';
      context.fillRect(x, y, width, height);
      context.fillStyle = '#111827';
    }
    context.strokeStyle = '#9ca3af';
    context.lineWidth = 0.5;
    for (const cell of line.cells) {
      context.strokeRect(x + cell.x, y, cell.width, height);
      cell.lines.forEach((text, at) => {
        const top = y + CELL_PADDING_Y + at * metrics.lineHeight;
        fitText(
          context,
          text,
          x + cell.x + CELL_PADDING_X,
          baseline(top, metrics.lineHeight, metrics.size),
          cell.width - 2 * CELL_PADDING_X,
        );
      });
    }
    return;
  }
  if (line.marker) {
    context.textAlign = 'right';
    context.fillText(line.marker, x - 5, baseline(y, height, metrics.size));
    context.textAlign = 'left';
  }
  fitText(context, line.text, x, baseline(y, height, Math.min(metrics.size, height)), width);
}

/** Where text of `size` sits in a row of `rowHeight` starting at `top`. */
function baseline(top: number, rowHeight: number, size: number): number {
  return top + (rowHeight - size) / 2 + size * 0.8;
}

/** Draws `text` from (x, y), squeezed horizontally when this machine's font makes it wider than `width`. */
function fitText(context: SKRSContext2D, text: string, x: number, y: number, width: number): void {
  if (text === '') return;
  const measured = context.measureText(text).width;
  if (measured <= width || measured === 0) {
    context.fillText(text, x, y);
    return;
  }
  context.save();
  context.translate(x, y);
  context.scale(width / measured, 1);
  context.fillText(text, 0, 0);
  context.restore();
}
