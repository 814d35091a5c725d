import { describe, expect, it } from 'vitest';
import { claimsByMarker } from '../../src/renderer/src/features/chat/answerSegments';
import { highlightSentence, wordRuns } from '../../src/renderer/src/features/pages/sentenceHighlight';
import type { PageWord } from '../../src/shared/domain/pages';

/** Words laid out left to right, 10 points per letter, one line per array. */
function page(lines: string[][], estimated = false): PageWord[] {
  return lines.flatMap((line, lineNumber) => {
    let x = 0;
    return line.map((text) => {
      const word = {
        text,
        box: { x, y: lineNumber * 20, width: text.length * 10, height: 12 },
        estimated,
        line: lineNumber,
      };
      x += text.length * 10 + 5;
      return word;
    });
  });
}

describe('the cited sentence on a page', () => {
  const words = page([
    ['The', 'pump', 'runs', 'daily.', 'The', 'boiler'],
    ['is', 'rated', 'at', '40', 'kW.', 'Ducts', 'are', 'steel.'],
  ]);

  it('marks the sentence the answer cites, one box per line it spans', () => {
    const highlight = highlightSentence(words, {
      boxes: [],
      claim: 'The boiler is rated at 40 kW',
      passage: null,
    })!;
    expect(highlight.text).toBe('The boiler is rated at 40 kW.');
    expect(highlight.runs).toHaveLength(2);
    expect(highlight.runs).toEqual([
      { x: 190, y: 0, width: 95, height: 12 },
      { x: 0, y: 20, width: 160, height: 12 },
    ]);
    expect(highlight.approximate).toBeNull();
  });

  it('keeps to the passage’s boxes and says when the words are estimated or paraphrased', () => {
    const estimated = page([['Ducts', 'are', 'steel.', 'Pumps', 'are', 'steel.']], true);
    const highlight = highlightSentence(estimated, {
      boxes: [{ x: 0, y: 0, width: 130, height: 12 }],
      claim: 'Ducts are made of galvanised steel sheet metal throughout the building',
      passage: null,
    })!;
    expect(highlight.text).toBe('Ducts are steel.');
    expect(highlight.approximate).toMatch(/estimated/);
    expect(highlight.approximate).toMatch(/words it differently/);
  });

  it('marks the whole passage, and says so, when no sentence shares a word with the answer', () => {
    const highlight = highlightSentence(words, { boxes: [], claim: 'Nothing alike here', passage: null })!;
    expect(highlight.text).toBe(words.map((word) => word.text).join(' '));
    expect(highlight.approximate).toMatch(/whole passage/);
  });

  it('joins words of one line into one run and starts a new run on the next line', () => {
    expect(wordRuns(words.slice(0, 3))).toEqual([{ x: 0, y: 0, width: 30 + 5 + 40 + 5 + 40, height: 12 }]);
    expect(wordRuns(words.slice(5, 7))).toHaveLength(2);
  });

  it('finds the sentence each marker closes in the answer', () => {
    const claims = claimsByMarker(
      'The pump runs daily [1]. The boiler is rated at 40 kW [2][1].\n\nDucts [3] are steel.',
    );
    expect(claims.get(1)).toBe('The pump runs daily');
    expect(claims.get(2)).toBe('The boiler is rated at 40 kW');
    expect(claims.get(3)).toBe('Ducts');
  });
});
