import { joinLineBreakHyphens } from '../searchText';

/*
 * Whether a passage holds a term as a word, as a reader would say it does: the full-text index
 * matches stems ("transformer" finds "transformation"), so its hits are candidates, checked here.
 *
 * A word is a run of letters, marks and digits, compared after NFKC (ligatures such as "ﬁ" become
 * "fi") and lower-casing; accents count. A word of letters then digits also counts as its parts
 * (`FY2022` holds `FY` and `2022`), and a word a line break hyphenated counts joined, as in the
 * index's search text. Plurals fold by spelling, not by dictionary: a word of letters also matches
 * itself plus -s, -es, y/-ies, and without -s, -es, -ies/y; so "goods" finds "good" and "news" finds
 * "new", while irregular plurals (leaf/leaves, man/men) do not fold. A term of several words is a
 * phrase: its words in order, with only spaces or punctuation between them.
 */

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const LETTERS = /^[\p{L}\p{M}]+$/u;
const LINE_END_HYPHEN = /\p{L}-[ \t]*\r?\n/u;
const LETTER_DIGIT = /\p{L}\p{N}/u;
const LETTER_DIGITS = /(\p{L})(\p{N})/gu;

/** The words of a text, folded (NFKC, lower case). */
export function foldedWords(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(WORD) ?? [];
}

/** Articles a term may start with ("the bill of materials"); the wider stopword list holds words like "net". */
const ARTICLES = new Set(['a', 'an', 'the']);

/** The words of a term to look for, folded; a leading article dropped unless nothing else is left. */
export function termWords(term: string): string[] {
  const words = foldedWords(term);
  return words.length > 1 && ARTICLES.has(words[0]!) ? words.slice(1) : words;
}

/** A word and its plural or singular by spelling (see above); numbers and letter-digit words as they are. */
export function pluralForms(word: string): string[] {
  if (!LETTERS.test(word)) return [word];
  const forms = new Set([word, `${word}s`, `${word}es`]);
  if (word.endsWith('y')) forms.add(`${word.slice(0, -1)}ies`);
  if (word.length > 3) {
    if (word.endsWith('ies')) forms.add(`${word.slice(0, -3)}y`);
    if (word.endsWith('es')) forms.add(word.slice(0, -2));
    if (word.endsWith('s') && !word.endsWith('ss')) forms.add(word.slice(0, -1));
  }
  return [...forms];
}

/** The word sequences a passage can be read as: as written, hyphens at line ends joined, letter-digit words split. */
function readings(text: string): string[][] {
  const written = text.normalize('NFKC');
  // Most passages have neither, and each reading is a pass over the text.
  const variants = LINE_END_HYPHEN.test(written) ? [written, joinLineBreakHyphens(written)] : [written];
  if (LETTER_DIGIT.test(written))
    for (const variant of [...variants]) variants.push(variant.replace(LETTER_DIGITS, '$1 $2'));
  return variants.map((variant) => variant.toLowerCase().match(WORD) ?? []);
}

/**
 * The forms by which a passage holds a phrase, as written there (folded), each once; empty when it
 * does not hold it. `slots` holds, for each word of the phrase, the words that may stand for it.
 */
export function formsIn(text: string, slots: ReadonlyArray<ReadonlySet<string>>): string[] {
  const found = new Set<string>();
  if (slots.length === 0) return [];
  const first = slots[0]!;
  for (const words of readings(text)) {
    for (let at = 0; at + slots.length <= words.length; at++) {
      if (!first.has(words[at]!)) continue;
      let i = 1;
      while (i < slots.length && slots[i]!.has(words[at + i]!)) i++;
      if (i === slots.length) found.add(words.slice(at, at + slots.length).join(' '));
    }
  }
  return [...found];
}

/** The distinct words of a passage in all its readings, for finding forms that share a stem. */
export function wordsOf(text: string): Set<string> {
  return new Set(readings(text).flat());
}
