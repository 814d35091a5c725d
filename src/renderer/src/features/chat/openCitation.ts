import type { Citation } from '../../../../shared/domain/agent';
import { fileName } from '../../lib/format';
import { usePagesStore } from '../pages/pagesStore';

/** Opens the cited page; `claim` is the answer's sentence that cites it, matched against the page's words. */
export function openCitation(citation: Citation, claim: string | null = null): void {
  usePagesStore.getState().openViewer({
    documentId: citation.documentId,
    page: citation.page,
    title: fileName(citation.path),
    highlight: { page: citation.page, boxes: citation.boxes, claim, passage: citation.snippet },
  });
}
