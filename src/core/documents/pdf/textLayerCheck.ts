import type { PageContent } from '../pdfium/pageContent';
import type { OcrReason } from '../types';

/**
 * A page needs OCR when its text layer holds fewer than this many usable characters (letters, digits,
 * punctuation, symbols; not private-use glyph codes or U+FFFD from fonts without a Unicode map): blank
 * pages, scans, and pages whose only text is a page number or a stray mark.
 */
export const MIN_TEXT_CHARS = 10;
// A page is mostly image when images cover this share of it...
const MOSTLY_IMAGE = 0.6;
// ...and its visible text boxes cover less than this share: a scan with a stamped header, a slide
// that is one big picture with a title.
const LITTLE_TEXT = 0.08;
// Past this share of odd characters (or of consonant-only words in Latin text) a layer is unreadable.
const GARBLED_SHARE = 0.25;
const MIN_CHARS_TO_JUDGE = 40;

export function usableCharacters(text: string): number {
  return (text.match(/[\p{L}\p{N}\p{P}\p{S}]/gu) ?? []).filter((char) => char !== '\uFFFD').length;
}

/**
 * Why this page's text layer is not enough, or null when it is. `content` is PDFium's measure of the
 * page (absent when PDFium could not open the file: then only the text itself is judged).
 */
export function ocrReasonFor(text: string, content: PageContent | null): OcrReason | null {
  if (usableCharacters(text) < MIN_TEXT_CHARS) return 'missing';
  if (content && content.invisibleTextCover > content.visibleTextCover) return 'invisible';
  if (looksGarbled(text)) return 'garbled';
  return content && isMostlyPicture(content) ? 'partial' : null;
}

/**
 * Why a page whose text alone looks sound needs OCR after all, judged by PDFium's measure of it: its
 * text is drawn invisibly over a picture, or a picture covers most of it. Null when neither.
 */
export function contentReasonFor(content: PageContent): OcrReason | null {
  if (content.invisibleTextCover > content.visibleTextCover) return 'invisible';
  return isMostlyPicture(content) ? 'partial' : null;
}

function isMostlyPicture(content: PageContent): boolean {
  return content.imageCover >= MOSTLY_IMAGE && content.visibleTextCover < LITTLE_TEXT;
}

/**
 * Text a bad OCR pass or a font without a Unicode map left behind: many characters that are neither
 * letters, digits nor ordinary punctuation, or (in Latin script) many words without a vowel.
 */
export function looksGarbled(text: string): boolean {
  const characters = text.replace(/\s+/g, '');
  if (characters.length < MIN_CHARS_TO_JUDGE) return false;
  const odd = characters.match(/[^\p{L}\p{N}.,;:'"’“”‘()\-–—!?%&/$€£@#+=*[\]]/gu)?.length ?? 0;
  if (odd / characters.length > GARBLED_SHARE) return true;
  const latinWords = text
    .split(/\s+/)
    .filter((word) => /^\p{Ll}{3,}$/u.test(word) && /^\p{Script=Latin}+$/u.test(word));
  if (latinWords.length < 8) return false;
  const voiceless = latinWords.filter((word) => !/[aeiouyàâäéèêëîïôöùûüÿæœáíóúãõåø]/iu.test(word)).length;
  return voiceless / latinWords.length > GARBLED_SHARE;
}
