import { parseHTML } from 'linkedom';
import { EPub } from 'epub2';
import { QuireError } from '../../../../shared/errors';
import { cleanText, type StructuredDocument, type Unit } from '../../structure/model';
import { decodeHtml } from '../html/readHtml';
import { htmlToBlocks, type HtmlElement } from '../html/htmlBlocks';
import { readZip } from '../zip/zipArchive';

/**
 * An EPUB through epub2: its chapters in reading (spine) order, each starting on a new page and
 * labelled with its title from the table of contents, flowing onto pages of about a printed page.
 * A chapter that cannot be read is skipped and said so on its page; DRM-protected books are refused.
 */
export async function readEpub(
  path: string,
  options: { signal?: AbortSignal } = {},
): Promise<StructuredDocument> {
  const zip = await readZip(path, {
    formatName: 'EPUB book',
    keep: (name) => name === 'META-INF/encryption.xml',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (
    zip.names.includes('META-INF/encryption.xml') &&
    /EncryptedData/.test(zip.text('META-INF/encryption.xml') ?? '')
  ) {
    throw new QuireError('unsupported', 'This EPUB book is protected (DRM): Quire cannot read its text.');
  }
  let book: EPub;
  try {
    book = await EPub.createAsync(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new QuireError('unsupported', `This EPUB book is damaged and cannot be read (${reason}).`);
  }
  const titles = new Map<string, string>();
  for (const entry of book.toc) {
    const href = (entry.href ?? '').split('#')[0]!;
    if (href && entry.title && !titles.has(href)) titles.set(href, cleanText(entry.title));
  }
  const units: Unit[] = [];
  for (const [at, item] of book.flow.entries()) {
    options.signal?.throwIfAborted();
    if (!item.id) continue;
    const label = titles.get((item.href ?? '').split('#')[0]!) ?? `Chapter ${at + 1}`;
    let html: string;
    try {
      html = await book.getChapterRawAsync(item.id);
    } catch {
      units.push({
        label,
        blocks: [{ kind: 'paragraph', text: 'This chapter could not be read.' }],
        pages: 'flow',
      });
      continue;
    }
    const { document } = parseHTML(typeof html === 'string' ? html : decodeHtml(Buffer.from(html)));
    const body = (document.body ?? document.documentElement) as unknown as HtmlElement | null;
    const blocks = body ? htmlToBlocks(body) : [];
    if (blocks.length > 0) units.push({ label, blocks, pages: 'flow' });
  }
  // A book whose package file lists nothing to read (epub2 drops a package it cannot parse, one with a
  // DOCTYPE for one) would otherwise be "indexed" with no pages and no word of why.
  if (book.flow.length === 0)
    throw new QuireError(
      'unsupported',
      'This EPUB book lists no chapters Quire can read: its package file (content.opf) is damaged or in a form the reader refuses.',
    );
  if (units.length === 0)
    throw new QuireError('unsupported', 'This EPUB book has no text Quire can read in any of its chapters.');
  const title = cleanText(book.metadata.title ?? '') || null;
  return { title, units };
}
