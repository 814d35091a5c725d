export type AnswerSegment = { kind: 'text'; text: string } | { kind: 'marker'; marker: number };

const MARKER_GROUP = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

/** Splits answer text at citation markers: "[2]" and "[1, 3]" become marker segments. */
export function splitAnswer(text: string): AnswerSegment[] {
  const segments: AnswerSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKER_GROUP)) {
    const start = match.index;
    if (start > last) segments.push({ kind: 'text', text: text.slice(last, start) });
    for (const number of (match[1] ?? '').split(',')) {
      segments.push({ kind: 'marker', marker: Number(number.trim()) });
    }
    last = start + match[0].length;
  }
  if (last < text.length) segments.push({ kind: 'text', text: text.slice(last) });
  return segments;
}

/** Paragraphs separated by blank lines; single newlines stay inside a paragraph. */
export function splitParagraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0);
}

/** The sentence a marker closes: the words before it back to the previous full stop. */
function lastSentence(text: string): string {
  const pieces = text.split(/(?<=[.!?])\s+/).filter((piece) => piece.trim() !== '');
  return (pieces[pieces.length - 1] ?? '').trim();
}

/** For each marker, the sentence of the answer that first cites it: what the viewer highlights. */
export function claimsByMarker(text: string): Map<number, string> {
  const claims = new Map<number, string>();
  for (const paragraph of splitParagraphs(text)) {
    let before = '';
    for (const segment of splitAnswer(paragraph)) {
      if (segment.kind === 'text') before += segment.text;
      else if (!claims.has(segment.marker)) claims.set(segment.marker, lastSentence(before));
    }
  }
  return claims;
}
