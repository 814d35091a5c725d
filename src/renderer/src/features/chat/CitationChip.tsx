import type { Citation } from '../../../../shared/domain/agent';
import { fileName } from '../../lib/format';
import { PageThumbnail } from '../pages/PageThumbnail';
import { openCitation } from './openCitation';

export function CitationChip({ citation, claim }: { citation: Citation; claim: string | null }) {
  const name = fileName(citation.path);
  return (
    <button
      type="button"
      className="citation-chip"
      data-testid="citation-chip"
      data-marker={citation.marker}
      title={citation.snippet || citation.path}
      onClick={() => openCitation(citation, claim)}
    >
      <PageThumbnail documentId={citation.documentId} page={citation.page} alt="" />
      <span className="citation-chip__text">
        <span className="citation-chip__marker">[{citation.marker}]</span>
        <span className="citation-chip__name">{name}</span>
        <span className="citation-chip__page">page {citation.page}</span>
        <span className="visually-hidden">, open the page</span>
      </span>
    </button>
  );
}
