/**
 * A name that, when the space is short, loses its middle rather than its end: the start and the last
 * characters (a file's extension with a few before it) stay, the full name shows on hover.
 */
interface MiddleNameProps {
  name: string;
  className?: string;
  /** The hover text: the name itself by default; null when the element around it has one. */
  title?: string | null;
}

/** Enough of the end to tell "report-2023.pdf" from "report-2024.pdf". */
const TAIL_LENGTH = 8;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Splits between user-perceived characters, so an accent or an emoji is never cut in two. */
export function splitName(name: string): { head: string; tail: string } {
  const characters = Array.from(segmenter.segment(name), (part) => part.segment);
  if (characters.length <= TAIL_LENGTH * 2) return { head: name, tail: '' };
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? Array.from(segmenter.segment(name.slice(dot))).length : 0;
  const keep = Math.min(Math.max(TAIL_LENGTH, extension + 4), Math.floor(characters.length / 2));
  return {
    head: characters.slice(0, -keep).join(''),
    tail: characters.slice(-keep).join(''),
  };
}

export function MiddleName({ name, className, title }: MiddleNameProps) {
  const { head, tail } = splitName(name);
  return (
    <span
      className={`middle-name${className ? ` ${className}` : ''}`}
      title={title === undefined ? name : (title ?? undefined)}
    >
      <span className="middle-name__head">{head}</span>
      {tail && <span className="middle-name__tail">{tail}</span>}
    </span>
  );
}
