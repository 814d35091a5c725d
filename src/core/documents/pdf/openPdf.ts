import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { QuireError } from '../../../shared/errors';
import { loadPdfJs, type PdfJs } from './loadPdfJs';

let assetDirs: { standardFontDataUrl: string; cMapUrl: string; wasmUrl: string } | undefined;

/** pdfjs wants its font, CMap and wasm folders as paths with a trailing slash. */
function pdfjsAssets(): NonNullable<typeof assetDirs> {
  if (!assetDirs) {
    const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    const dir = (name: string) => join(root, name) + '/';
    assetDirs = { standardFontDataUrl: dir('standard_fonts'), cMapUrl: dir('cmaps'), wasmUrl: dir('wasm') };
  }
  return assetDirs;
}

export interface OpenPdfOptions {
  password?: string;
  /** Images larger than this many pixels are skipped, not decoded: a 35000 x 35000 scan would need 5 GB. */
  maxImagePixels?: number;
}

export const DEFAULT_MAX_IMAGE_PIXELS = 50_000_000;

/**
 * Opens a PDF from disk and maps pdfjs failures onto errors a user can act on:
 * `needs_password`, `wrong_password`, or `unsupported` with pdfjs's reason.
 * The caller must `destroy()` the document.
 */
export async function openPdf(path: string, options: OpenPdfOptions = {}): Promise<PDFDocumentProxy> {
  const [pdfjs, bytes] = await Promise.all([loadPdfJs(), readFile(path)]);
  const passwords = passwordForms(options.password);
  for (let i = 0; ; i++) {
    const last = i === passwords.length - 1;
    // pdfjs detaches the array it is given: keep the file's bytes intact while other forms remain to try.
    const data = last
      ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : new Uint8Array(bytes);
    try {
      return await openPdfBytes(pdfjs, data, {
        ...options,
        ...(passwords[i] === undefined ? {} : { password: passwords[i] }),
      });
    } catch (error) {
      if (last || !(error instanceof QuireError) || error.code !== 'wrong_password') throw error;
    }
  }
}

/** SASLprep's "commonly mapped to nothing" characters: soft hyphen, joiners, variation selectors. */
function mappedToNothing(code: number): boolean {
  return (
    code === 0xad ||
    code === 0x34f ||
    (code >= 0x180b && code <= 0x180d) ||
    (code >= 0x200b && code <= 0x200d) ||
    code === 0x2060 ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    code === 0xfeff
  );
}

/** A typed password as SASLprep maps it: invisible characters dropped, spaces unified, NFKC. */
export function preparePassword(password: string): string {
  return Array.from(password)
    .filter((char) => !mappedToNothing(char.codePointAt(0) ?? 0))
    .join('')
    .replace(/[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g, ' ')
    .normalize('NFKC');
}

/**
 * The byte forms a typed password can take. AES-256 (R5/R6) files expect the SASLprep-ed password as
 * UTF-8, which pdfjs wants as a byte string; older files expect it as typed (PDFDocEncoding).
 */
export function passwordForms(password: string | undefined): Array<string | undefined> {
  if (password === undefined) return [undefined];
  const prepared = preparePassword(password);
  const asUtf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  return [...new Set([password, asUtf8Bytes(prepared), asUtf8Bytes(password), prepared])];
}

export async function openPdfBytes(
  pdfjs: PdfJs,
  data: Uint8Array,
  options: OpenPdfOptions = {},
): Promise<PDFDocumentProxy> {
  const task = pdfjs.getDocument({
    data,
    ...pdfjsAssets(),
    cMapPacked: true,
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
    maxImageSize: options.maxImagePixels ?? DEFAULT_MAX_IMAGE_PIXELS,
    ...(options.password === undefined ? {} : { password: options.password }),
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw pdfError(error, options.password !== undefined);
  }
}

export function pdfError(error: unknown, passwordGiven: boolean): QuireError {
  const name = (error as { name?: string } | null)?.name;
  const code = (error as { code?: number } | null)?.code;
  if (name === 'PasswordException') {
    return code === 2 || passwordGiven
      ? new QuireError('wrong_password', 'The password is not right for this PDF.')
      : new QuireError('needs_password', 'This PDF is encrypted: enter its password to read it.');
  }
  const reason = (error instanceof Error ? error.message : String(error)).replace(/\.+$/, '');
  return new QuireError('unsupported', `This PDF cannot be read: ${reason || 'unknown error'}.`);
}
