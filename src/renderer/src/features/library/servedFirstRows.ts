import type { LibraryListing } from '../../../../shared/domain/library';
import { FIRST_ROWS_ELEMENT_ID } from '../../../../shared/ipc/firstRows';

/**
 * The library's first rows as `quire serve` wrote them into this page: a `library.list` answer, or
 * null when the page has none (the desktop app) or they cannot be read. Taken once: the block is
 * removed, so a later reader cannot take rows that have aged since.
 */
export function takeServedFirstRows(
  page: Pick<Document, 'getElementById'> = document,
): LibraryListing | null {
  const block = page.getElementById(FIRST_ROWS_ELEMENT_ID);
  if (!block) return null;
  block.remove();
  return parseServedFirstRows(block.textContent);
}

/**
 * The listing in a served block, checked only for the shape the window relies on before the
 * contract's schemas have loaded: the engine that served the page is the one that answers its calls.
 */
export function parseServedFirstRows(text: string | null): LibraryListing | null {
  if (!text) return null;
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof answer !== 'object' || answer === null || !('ok' in answer) || answer.ok !== true) return null;
  const listing = 'value' in answer ? answer.value : null;
  if (typeof listing !== 'object' || listing === null) return null;
  const { documents, roots, revision } = listing as Partial<LibraryListing>;
  if (!Array.isArray(documents) || !Array.isArray(roots) || typeof revision !== 'number') return null;
  return listing as LibraryListing;
}
