/*
 * Whether a question reads more than one way against the library: "the report" when there are several,
 * a company with filings from several years and no year named, a name that fits two companies. The
 * answer is one short question with the library's own documents as choices.
 */
import type { ClarificationChoice } from '../../../shared/domain/agent';
import type { DocumentInfo } from '../../../shared/domain/library';
import { documentName, matchDocuments, nameWords, ownerWords } from './libraryMatch';

export interface Clarification {
  question: string;
  choices: ClarificationChoice[];
}

const MAX_CHOICES = 5;
const isYear = (word: string) => /^(?:19|20)\d{2}$/.test(word);

/** A generic definite mention: "the report", "this paper", "the 10-K". */
const GENERIC =
  /\b(?:the|this|that)\s+(report|document|paper|filing|10-?k|10-?q|annual report|presentation|manual|slides|slide deck|brochure|study|article)\b/i;

function inARow(words: string[], part: string[]): boolean {
  for (let at = 0; at + part.length <= words.length; at++) {
    if (part.every((word, i) => words[at + i] === word)) return true;
  }
  return false;
}

const choice = (document: DocumentInfo): ClarificationChoice => ({
  label: documentName(document),
  documentIds: [document.id],
});

export function findAmbiguity(question: string, library: DocumentInfo[]): Clarification | null {
  const documents = library.filter((d) => d.state === 'indexed');
  if (documents.length < 2) return null;
  const words = nameWords(question);
  const joined = new Set(words.map((word, i) => word + (words[i + 1] ?? '')));
  const years = words.filter(isYear);

  // Documents whose owner the question names: the owner's words in a row, or written as one word.
  const named = documents.filter((document) => {
    const owner = ownerWords(document);
    return (
      owner.length > 0 &&
      (inARow(words, owner) || joined.has(owner.join('')) || words.includes(owner.join('')))
    );
  });
  const owners = new Set(named.map((d) => ownerWords(d).join(' ')));
  if (owners.size === 1 && named.length > 1) {
    const fitting =
      years.length > 0 ? named.filter((d) => years.some((y) => nameWords(documentName(d)).includes(y))) : [];
    if (fitting.length === 1) return null;
    const candidates = fitting.length > 1 ? fitting : named;
    return {
      question: `Which ${[...owners][0]!.toUpperCase()} document do you mean?`,
      choices: candidates.slice(0, MAX_CHOICES).map(choice),
    };
  }
  if (owners.size >= 1) return null;

  // A name that fits several owners ("Johnson" with two Johnson companies).
  const capitalised = question.match(/\b[A-Z][\w&'-]{2,}\b/g) ?? [];
  for (const name of capitalised.slice(1)) {
    const matches = matchDocuments(name, documents).filter((m) => m.how !== 'fuzzy');
    const matchedOwners = new Set(matches.map((m) => ownerWords(m.document).join(' ')));
    if (matchedOwners.size >= 2) {
      return {
        question: `Which "${name}" do you mean?`,
        choices: matches.slice(0, MAX_CHOICES).map((m) => choice(m.document)),
      };
    }
  }

  return null;
}

/** Whether the question speaks of "the report" or "this paper" without naming it. */
export function mentionsGenericDocument(question: string): boolean {
  return GENERIC.test(question);
}

/** Share of the top hits one document must hold for "the report" to mean that document. */
const DOMINANT_SHARE = 0.6;

/**
 * "The report" is ambiguous only when the question's own search spreads over several documents; the
 * choices are those documents, in the order the search found them.
 */
export function genericAmbiguity(
  question: string,
  hits: Array<{ documentId: string }>,
  library: DocumentInfo[],
): Clarification | null {
  const generic = GENERIC.exec(question);
  if (!generic || hits.length === 0) return null;
  const counts = new Map<string, number>();
  for (const hit of hits) counts.set(hit.documentId, (counts.get(hit.documentId) ?? 0) + 1);
  const top = Math.max(...counts.values());
  if (counts.size < 2 || top / hits.length >= DOMINANT_SHARE) return null;
  const byId = new Map(library.map((d) => [d.id, d]));
  const choices = [...counts.keys()].flatMap((id) => {
    const document = byId.get(id);
    return document ? [choice(document)] : [];
  });
  return choices.length < 2
    ? null
    : { question: `Which document do you mean by "${generic[0]}"?`, choices: choices.slice(0, MAX_CHOICES) };
}

/** The sentence stated with an answer when the agent picked a reading itself. */
export function describeAssumption(clarification: Clarification, picked: ClarificationChoice): string {
  const others = clarification.choices.filter((c) => c !== picked).map((c) => c.label);
  return `The question could mean several documents; this answer assumes ${picked.label}${others.length > 0 ? ` (not ${others.join(', ')})` : ''}.`;
}
