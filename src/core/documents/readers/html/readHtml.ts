import { readFile } from 'node:fs/promises';
import { parseHTML } from 'linkedom';
import { cleanText, type StructuredDocument } from '../../structure/model';
import { htmlToBlocks, type HtmlElement } from './htmlBlocks';

/** Decodes HTML bytes by their BOM or `<meta charset>`, UTF-8 otherwise (undecodable labels too). */
export function decodeHtml(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const head = bytes.subarray(0, 2048).toString('latin1');
  const label = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
  if (label) {
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // An encoding this runtime does not know: read as UTF-8 below.
    }
  }
  return bytes.toString('utf8');
}

/** A saved web page: one flowing unit, laid out on pages of about a printed page. */
export async function readHtml(path: string): Promise<StructuredDocument> {
  return htmlDocument(decodeHtml(await readFile(path)));
}

export function htmlDocument(source: string): StructuredDocument {
  const { document } = parseHTML(source);
  const root = (document.body ?? document.documentElement) as unknown as HtmlElement | null;
  const blocks = root ? htmlToBlocks(root) : [];
  const title =
    cleanText(document.title ?? '') || (blocks.find((block) => block.kind === 'heading')?.text ?? null);
  return { title: title || null, units: [{ label: null, blocks, pages: 'flow' }] };
}
