import { useMemo } from 'react';
import type { PageWords } from '../../../../shared/domain/pages';
import type { BoundingBox } from '../../../../shared/domain/search';
import type { ViewerTarget } from './pagesStore';
import { highlightSentence } from './sentenceHighlight';

export interface CitedHighlight {
  /** Boxes to mark on the page, in page points. */
  boxes: BoundingBox[];
  /** Said in the viewer when the marked words may not be exactly the cited ones. */
  note: string | null;
}

const NONE: CitedHighlight = { boxes: [], note: null };

/** The cited sentence on the page shown, as word runs; the whole passage, said so, when words are unknown. */
export function useCitedHighlight(
  target: ViewerTarget,
  words: PageWords | string | undefined,
): CitedHighlight {
  const highlight = target.highlight;
  return useMemo(() => {
    if (!highlight || highlight.page !== target.page) return NONE;
    const passage = { boxes: highlight.boxes, note: null };
    if (words === undefined) return passage;
    if (typeof words === 'string') {
      return highlight.boxes.length > 0
        ? { boxes: highlight.boxes, note: `Approximate highlight: the whole passage is marked (${words})` }
        : NONE;
    }
    const sentence = highlightSentence(words.words, {
      boxes: highlight.boxes,
      claim: highlight.claim ?? null,
      passage: highlight.passage ?? null,
    });
    if (!sentence) {
      return highlight.boxes.length > 0
        ? {
            boxes: highlight.boxes,
            note: 'Approximate highlight: no words were found in the passage, so its area is marked.',
          }
        : NONE;
    }
    return { boxes: sentence.runs, note: sentence.approximate };
  }, [highlight, target.page, words]);
}
