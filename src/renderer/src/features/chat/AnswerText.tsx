import { useMemo } from 'react';
import type { Citation } from '../../../../shared/domain/agent';
import { claimsByMarker, splitAnswer, splitParagraphs } from './answerSegments';
import { openCitation } from './openCitation';

interface AnswerTextProps {
  text: string;
  citations: readonly Citation[];
  streaming: boolean;
}

/** The answer as paragraphs, with each [n] a link to the page it cites. */
export function AnswerText({ text, citations, streaming }: AnswerTextProps) {
  const paragraphs = useMemo(() => splitParagraphs(text).map(splitAnswer), [text]);
  const byMarker = useMemo(
    () => new Map(citations.map((citation) => [citation.marker, citation])),
    [citations],
  );
  const claims = useMemo(() => claimsByMarker(text), [text]);

  return (
    <div className={`answer-text${streaming ? ' answer-text--streaming' : ''}`}>
      {paragraphs.map((segments, paragraphIndex) => (
        <p key={paragraphIndex}>
          {segments.map((segment, index) => {
            if (segment.kind === 'text') return <span key={index}>{segment.text}</span>;
            const citation = byMarker.get(segment.marker);
            if (!citation) return <span key={index}>[{segment.marker}]</span>;
            return (
              <button
                key={index}
                type="button"
                className="citation-marker"
                data-testid="citation-marker"
                aria-label={`Open citation ${segment.marker}, page ${citation.page}`}
                onClick={() => openCitation(citation, claims.get(segment.marker) ?? null)}
              >
                {segment.marker}
              </button>
            );
          })}
        </p>
      ))}
    </div>
  );
}
