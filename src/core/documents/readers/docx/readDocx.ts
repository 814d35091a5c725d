import { readFile } from 'node:fs/promises';
import { parseHTML } from 'linkedom';
import mammoth from 'mammoth';
import { QuireError } from '../../../../shared/errors';
import { cleanText, type StructuredDocument } from '../../structure/model';
import { htmlToBlocks, type HtmlElement } from '../html/htmlBlocks';
import { readZip } from '../zip/zipArchive';
import { coreTitle } from '../zip/coreProperties';

// Word's built-in styles mammoth does not map by default; page breaks become markers the layout keeps.
const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
  "br[type='page'] => hr.page-break",
  'comment-reference => sup',
];

export interface ReadOptions {
  signal?: AbortSignal;
}

/**
 * A Word document (.docx) through mammoth: its HTML form keeps headings, lists, tables, alt text,
 * footnotes and comments; page breaks split pages, and long stretches without one flow onto pages of
 * about a printed page.
 */
export async function readDocx(path: string, options: ReadOptions = {}): Promise<StructuredDocument> {
  const zip = await readZip(path, {
    formatName: 'Word document',
    keep: (name) => name === 'docProps/core.xml',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const buffer = await readFile(path);
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer },
      {
        styleMap: STYLE_MAP,
        // Pictures are kept by their alt text only: their bytes would only be base64-encoded and dropped.
        convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
      },
    );
    html = result.value;
  } catch (error) {
    throw damagedDocx(error);
  }
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  placeComments(document as unknown as CommentDocument);
  const blocks = htmlToBlocks(document.body as unknown as HtmlElement);
  const title = coreTitle(zip.text('docProps/core.xml')) ?? firstHeading(blocks);
  return { title, units: [{ label: null, blocks, pages: 'flow' }] };
}

function firstHeading(blocks: ReturnType<typeof htmlToBlocks>): string | null {
  const heading = blocks.find((block) => block.kind === 'heading');
  return heading?.kind === 'heading' ? heading.text : null;
}

function damagedDocx(error: unknown): QuireError {
  const reason = error instanceof Error ? error.message : String(error);
  return new QuireError('unsupported', `This Word document is damaged and cannot be read (${reason}).`);
}

interface CommentElement extends HtmlElement {
  id: string;
  parentNode: CommentElement | null;
  nextElementSibling: CommentElement | null;
  remove(): void;
  after(node: unknown): void;
  setAttribute(name: string, value: string): void;
  textContent: string;
}
interface CommentDocument {
  querySelectorAll(selector: string): ArrayLike<CommentElement>;
  createElement(tag: string): CommentElement;
}

/**
 * mammoth lists comments at the end (`<dl><dt id="comment-0">Comment [JR1]</dt><dd>...`): each moves
 * next to the paragraph that refers to it, as an aside the block reader turns into a note.
 */
function placeComments(document: CommentDocument): void {
  const comments = new Map<string, { label: string; text: string }>();
  for (const term of Array.from(document.querySelectorAll('dt[id^="comment-"]'))) {
    const body = term.nextElementSibling;
    const text = cleanText((body?.textContent ?? '').replace(/↑/g, ''));
    comments.set(term.id, { label: cleanText(term.textContent), text });
    body?.remove();
    const list = term.parentNode;
    term.remove();
    if (list && list.localName === 'dl' && list.children.length === 0) list.remove();
  }
  for (const reference of Array.from(document.querySelectorAll('a[href^="#comment-"]'))) {
    const comment = comments.get((reference.getAttribute('href') ?? '').slice(1));
    const sup = reference.parentNode;
    let block = sup?.parentNode ?? null;
    while (block && !['p', 'li', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'].includes(block.localName)) {
      block = block.parentNode;
    }
    sup?.remove();
    if (!comment || comment.text === '' || !block) continue;
    const aside = document.createElement('aside');
    aside.setAttribute('data-note-label', comment.label);
    aside.textContent = comment.text;
    block.after(aside);
  }
}
