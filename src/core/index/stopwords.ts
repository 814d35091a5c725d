import { createRequire } from 'node:module';

/*
 * English stopwords from the stopwords-iso collection (a published union of the common English lists),
 * used as is: query words are never picked by looking at how a question set fails.
 */

let english: ReadonlySet<string> | null = null;

function englishStopwords(): ReadonlySet<string> {
  if (!english) {
    const lists = createRequire(import.meta.url)('stopwords-iso') as Record<string, string[]>;
    english = new Set(lists.en ?? []);
  }
  return english;
}

/** Whether a lower-cased word is an English stopword. */
export function isStopword(word: string): boolean {
  return englishStopwords().has(word);
}
