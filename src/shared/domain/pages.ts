import { z } from 'zod';
import { BoundingBox } from './search';

/*
 * Pages of documents that have no page layout of their own (Word, PowerPoint, Excel, OpenDocument,
 * HTML, EPUB, Markdown, text) are laid out by Quire on a nominal page. The same layout is drawn as the
 * page's image and, where no image can be drawn, shown as formatted text: one geometry for both, so
 * highlighted regions land on the same words either way.
 */

export const PageLineStyle = z.enum([
  'label',
  'h1',
  'h2',
  'h3',
  'h4',
  'body',
  'listItem',
  'tableHeader',
  'tableRow',
  'noteLabel',
  'note',
  'image',
]);
export type PageLineStyle = z.infer<typeof PageLineStyle>;

export const PageTextCell = z.object({
  /** Left edge, in points from the left of the row's box. */
  x: z.number(),
  width: z.number(),
  /** The cell's text, broken into the lines it is drawn as. */
  lines: z.array(z.string()),
});
export type PageTextCell = z.infer<typeof PageTextCell>;

export const PageTextLine = z.object({
  style: PageLineStyle,
  /** The line's text; a table row's cells are separated by tabs. */
  text: z.string(),
  box: BoundingBox,
  /** A list item's bullet or number, drawn left of the box. */
  marker: z.string().optional(),
  /** A table row's cells. */
  cells: z.array(PageTextCell).optional(),
});
export type PageTextLine = z.infer<typeof PageTextLine>;

/** One laid-out page: what the text view draws, and what the page image is drawn from. */
export const PageText = z.object({
  documentId: z.string(),
  page: z.number().int().positive(),
  /** Page size in points, the unit of `box` and of citation boxes. */
  pageWidth: z.number().positive(),
  pageHeight: z.number().positive(),
  lines: z.array(PageTextLine),
  /** Why the page is shown as text rather than as an image. */
  reason: z.string(),
});
export type PageText = z.infer<typeof PageText>;

/** One word on a page, in points from the top-left, where the page image shows it. */
export const PageWord = z.object({
  text: z.string(),
  box: BoundingBox,
  /**
   * True when the box was placed by measuring the word with a stand-in font inside a longer run of
   * text (a PDF text item spans several words); false when the box is the word's own (OCR, Quire's layout).
   */
  estimated: z.boolean(),
  /** Words on the same line share a number, counted in reading order. */
  line: z.number().int().nonnegative(),
});
export type PageWord = z.infer<typeof PageWord>;

/** The words of one page with their boxes: the viewer's selectable text layer and its highlights. */
export const PageWords = z.object({
  documentId: z.string(),
  page: z.number().int().positive(),
  pageWidth: z.number().positive(),
  pageHeight: z.number().positive(),
  /** Where the words came from: the PDF's text layer, OCR, or Quire's own layout of an office file. */
  source: z.enum(['layer', 'ocr', 'layout']),
  words: z.array(PageWord),
});
export type PageWords = z.infer<typeof PageWords>;
