import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { openPdf } from './openPdf';

/** One bookmark of a PDF's outline (its table of contents as the author saved it), with its page. */
export interface OutlineEntry {
  title: string;
  /** 1-based page the bookmark opens. */
  page: number;
  /** 0 for top-level bookmarks, 1 for their children, and so on. */
  depth: number;
}

/** A hostile outline can nest or repeat without end; real ones stay far below this. */
const MAX_ENTRIES = 5000;

type OutlineNode = Awaited<ReturnType<PDFDocumentProxy['getOutline']>>[number];

/**
 * The PDF's outline in reading order, each bookmark resolved to its page. Bookmarks that open no page
 * of this file (web links, broken destinations) are left out; a PDF without an outline gives [].
 */
export async function readPdfOutline(
  path: string,
  options: { password?: string; signal?: AbortSignal } = {},
): Promise<OutlineEntry[]> {
  const document = await openPdf(path, options.password === undefined ? {} : { password: options.password });
  try {
    const entries: OutlineEntry[] = [];
    const walk = async (nodes: OutlineNode[] | null | undefined, depth: number): Promise<void> => {
      for (const node of nodes ?? []) {
        if (entries.length >= MAX_ENTRIES) return;
        options.signal?.throwIfAborted();
        const page = await destinationPage(document, node.dest);
        const title = node.title.replace(/\s+/g, ' ').trim();
        if (page !== null && title) entries.push({ title, page, depth });
        await walk(node.items, depth + 1);
      }
    };
    await walk(await document.getOutline(), 0);
    return entries;
  } finally {
    await document.destroy();
  }
}

/** A destination is a name to look up or an explicit array whose first item is the page (a reference or an index). */
async function destinationPage(
  document: PDFDocumentProxy,
  dest: OutlineNode['dest'],
): Promise<number | null> {
  try {
    const explicit = typeof dest === 'string' ? await document.getDestination(dest) : dest;
    const target: unknown = Array.isArray(explicit) ? explicit[0] : null;
    let index: number | null = null;
    if (typeof target === 'number') index = target;
    else if (target && typeof target === 'object' && 'num' in target && 'gen' in target)
      index = await document.getPageIndex(target as { num: number; gen: number });
    return index !== null && Number.isInteger(index) && index >= 0 && index < document.numPages
      ? index + 1
      : null;
  } catch {
    // A destination that names nothing in this file opens no page.
    return null;
  }
}
