import { extname } from 'node:path';
import type { DocumentKind } from '../../shared/domain/library';

const kindsByExtension: Record<string, DocumentKind> = {
  '.pdf': 'pdf',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.docx': 'docx',
  '.docm': 'docx',
  '.doc': 'doc',
  '.pptx': 'pptx',
  '.pptm': 'pptx',
  '.ppt': 'ppt',
  '.xlsx': 'xlsx',
  '.xlsm': 'xlsx',
  '.xls': 'xls',
  '.odt': 'odt',
  '.odp': 'odp',
  '.ods': 'ods',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.epub': 'epub',
  '.png': 'image',
  '.jpg': 'image',
  '.jpeg': 'image',
  '.tif': 'image',
  '.tiff': 'image',
  '.webp': 'image',
  '.heic': 'image',
  '.heif': 'image',
};

/** The kind of document a file is, or null when Quire does not list it. */
export function documentKindOf(path: string): DocumentKind | null {
  return kindsByExtension[extname(path).toLowerCase()] ?? null;
}
