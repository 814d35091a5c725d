/*
 * What an answer claims, checked against what it cites: each sentence's figures, technical terms and
 * quotes must be in the passages its markers name. A claim whose facts are in one other retrieved
 * passage is re-cited to it; one whose facts are in none is reported, so the draft is redone.
 */
import { findFigures, followsFrom, PassageFigures, type Figure } from './figures';
import { findMarkers } from './markers';
import type { Source, SourceRegistry } from './sources';
import { normalizeForMatch } from './text';

const MIN_QUOTE_WORDS = 3;

/** Quoted passages long enough to be claims about the source rather than scare quotes. */
export function findQuotes(text: string): string[] {
  const quotes: string[] = [];
  for (const match of text.matchAll(/"([^"\n]{3,600})"|\u201c([^\u201d\n]{3,600})\u201d/g)) {
    const quote = (match[1] ?? match[2] ?? '').trim();
    if (quote.split(/\s+/).length >= MIN_QUOTE_WORDS) quotes.push(quote);
  }
  return quotes;
}

const UNIT = String.raw`(?:%|percent|ms|s|sec|seconds?|minutes?|hours?|days?|years?|[kKmMgGtT]i?[bB]|bytes?|[kKmMgG]?[hH]z|°[CF]|[mck]?m|kg|g|mg|[kKmM]?[wW]|V|mAh|px|dpi|pages?|tokens?|million|billion|USD|EUR|\$)`;
const NUMBER_WITH_UNIT = new RegExp(String.raw`(?:\$\s?)?\d[\d,]*(?:\.\d+)?\s?${UNIT}(?![\p{L}])`, 'gu');
const IDENTIFIER =
  /\b(?:[A-Za-z]+_[A-Za-z0-9_]+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Z]{2,}[a-z]+[A-Za-z0-9]*|[A-Za-z]\w*\(\))/g;

function withoutMarkers(text: string): string {
  return text.replace(/\[\d[^\]]*\]/g, (marker) => ' '.repeat(marker.length));
}

/** Identifiers, CamelCase names and numbers with units: the words a model most often invents. */
export function findTechnicalTerms(text: string): string[] {
  const plain = withoutMarkers(text);
  const terms = [...(plain.match(IDENTIFIER) ?? []), ...(plain.match(NUMBER_WITH_UNIT) ?? [])];
  return [...new Set(terms.map((t) => t.trim()))];
}

/** Numbers lose separators and spacing so "1,000 ms" matches "1000ms". */
export function compact(text: string): string {
  return normalizeForMatch(text.replace(/(\d),(\d)/g, '$1$2')).replace(/ /g, '');
}

/** One sentence, or one line of a list or table, with the markers written after it. */
export interface Claim {
  start: number;
  end: number;
  text: string;
}

/** Words whose full stop does not end a sentence. */
const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'no',
  'nos',
  'p',
  'pp',
  'fig',
  'approx',
  'inc',
  'corp',
  'co',
  'ltd',
  'mr',
  'mrs',
  'dr',
  'st',
  'u.s',
  'cf',
  'al',
]);
/** A sentence's end: its punctuation, closing quotes and any markers that follow, then a space or the end. */
const SENTENCE_END = /[.!?]+["'\u201d\u2019)]*(?:[ \t]*\[\d[\d\s,;\u2013-]*\])*(?=\s|$)/g;

function opensQuote(text: string): boolean {
  const straight = (text.match(/"/g) ?? []).length;
  const curlyOpen = (text.match(/\u201c/g) ?? []).length;
  const curlyClose = (text.match(/\u201d/g) ?? []).length;
  return straight % 2 === 1 || curlyOpen > curlyClose;
}

/**
 * The answer's sentences and list lines, each with the markers attached to it: a marker after the full
 * stop ("... 12 kg. [1]") belongs to the sentence before it. A stop after an abbreviation, a list
 * number or inside a quotation does not end a sentence.
 */
export function splitClaims(answer: string): Claim[] {
  const claims: Claim[] = [];
  const push = (start: number, end: number) => {
    const text = answer.slice(start, end);
    const lead = text.length - text.trimStart().length;
    const trimmed = text.trim();
    if (trimmed !== '')
      claims.push({ start: start + lead, end: start + lead + trimmed.length, text: trimmed });
  };
  let lineStart = 0;
  for (const line of answer.split('\n')) {
    let from = 0;
    for (const match of line.matchAll(SENTENCE_END)) {
      const before = line.slice(from, match.index);
      const word = /([\p{L}.]+)$/u.exec(before)?.[1]?.replace(/\.$/, '').toLowerCase() ?? '';
      const end = match.index + match[0].length;
      if (match[0].startsWith('.') && (word.length === 1 || ABBREVIATIONS.has(word))) continue;
      if (/^[ \t]*(?:[-*][ \t]*)?\d{1,3}$/.test(before) && match[0].startsWith('.')) continue;
      if (opensQuote(line.slice(from, end))) continue;
      push(lineStart + from, lineStart + end);
      from = end;
    }
    push(lineStart + from, lineStart + line.length);
    lineStart += line.length + 1;
  }
  return claims;
}

export interface ClaimCheckInput {
  answer: string;
  question: string;
  sources: SourceRegistry;
  /** Evidence that is not a numbered passage: file tool results, vision readings, summaries. */
  otherEvidence: string;
  /** A follow-up may restate a year from earlier turns, which this run's material need not hold. */
  followUp?: boolean;
}

/** A sentence whose markers were rewritten to the passage that holds its facts. */
export interface Recitation {
  sentence: string;
  /** Its markers' numbers before, and after. */
  from: number[];
  to: number[];
}

export interface ClaimCheckResult {
  /** The answer with re-cited markers rewritten. */
  answer: string;
  recited: Recitation[];
  /** One per sentence whose facts its citations do not hold and that could not be re-cited. */
  problems: string[];
  /** The sentences that cite nothing retrieved, for the check against all the evidence. */
  uncited: string;
}

interface Fact {
  text: string;
  at: number;
  figure?: Figure;
  kind: 'figure' | 'term' | 'quote';
}

/** A passage read once for every kind of fact. */
class Material {
  readonly figures: PassageFigures;
  readonly compact: string;
  readonly normal: string;

  constructor(text: string) {
    this.figures = new PassageFigures(text);
    this.compact = compact(text);
    this.normal = normalizeForMatch(text);
  }

  holds(fact: Fact): boolean {
    if (fact.figure) return this.figures.holds(fact.figure);
    if (fact.kind === 'quote') return this.normal.includes(normalizeForMatch(fact.text));
    return this.compact.includes(compact(fact.text));
  }
}

function factsOf(text: string): { facts: Fact[]; years: Figure[] } {
  const plain = withoutMarkers(text);
  const figures = findFigures(plain);
  const facts: Fact[] = figures
    .filter((f) => !f.year)
    .map((f) => ({ text: f.text, at: f.at, figure: f, kind: 'figure' }));
  for (const match of plain.matchAll(IDENTIFIER))
    facts.push({ text: match[0], at: match.index, kind: 'term' });
  for (const quote of findQuotes(plain)) facts.push({ text: quote, at: plain.indexOf(quote), kind: 'quote' });
  const seen = new Set<string>();
  const unique = facts.filter((f) => !seen.has(f.text) && seen.add(f.text));
  return { facts: unique.sort((a, b) => a.at - b.at), years: figures.filter((f) => f.year) };
}

const list = (numbers: number[]) => numbers.map((n) => `[${n}]`).join(' and ');
const listFacts = (facts: Fact[]) => facts.map((f) => f.text).join(', ');
const shortened = (text: string) => (text.length > 160 ? `${text.slice(0, 157)}...` : text);

/** Checks every sentence that cites a retrieved passage; the rest is left for the whole-evidence check. */
export function checkClaims(input: ClaimCheckInput): ClaimCheckResult {
  const { sources } = input;
  const materials = new Map<number, Material>();
  const material = (source: Source) => {
    let found = materials.get(source.n);
    if (!found) materials.set(source.n, (found = new Material(source.text)));
    return found;
  };
  const question = new Material(input.question);
  const other = new Material(input.otherEvidence);
  const everything = new PassageFigures(
    [input.question, input.otherEvidence, ...sources.all().flatMap((s) => [s.text, s.path])].join('\n'),
  );

  const problems: string[] = [];
  const recited: Recitation[] = [];
  const uncited: string[] = [];
  const rewrites: Array<{ claim: Claim; text: string }> = [];

  for (const claim of splitClaims(input.answer)) {
    const numbers = [...new Set(findMarkers(claim.text).flatMap((m) => m.numbers))];
    const cited = numbers.flatMap((n) => sources.get(n) ?? []);
    if (cited.length === 0) {
      uncited.push(claim.text);
      continue;
    }
    const { facts, years } = factsOf(claim.text);
    const inCited = (fact: Fact) => cited.some((s) => material(s).holds(fact));
    const held = facts.filter(inCited);
    const heldFigures = held.flatMap((f) => f.figure ?? []);
    // Names the user wrote are the subject of the claim, not a fact it reports.
    const missing = facts.filter(
      (f) =>
        !held.includes(f) &&
        !(f.kind === 'term' && question.holds(f)) &&
        !(f.figure && followsFrom(f.figure, heldFigures)),
    );
    const lostYears = input.followUp ? [] : years.filter((y) => !everything.holds(y));
    if (missing.length === 0 && lostYears.length === 0) continue;

    const others = sources.all().filter((s) => !cited.includes(s));
    const holdersOf = (fact: Fact) => others.filter((s) => material(s).holds(fact));
    const inSources = missing.filter((f) => holdersOf(f).length > 0);
    // Facts no passage holds may come from a vision reading or a file tool; those stand as read.
    const nowhere = [
      ...missing.filter((f) => !inSources.includes(f) && !other.holds(f)),
      ...lostYears.map((y): Fact => ({ text: y.text, at: y.at, figure: y, kind: 'figure' })),
    ];
    const readElsewhere = missing.some((f) => !inSources.includes(f) && other.holds(f));

    const target =
      inSources.length > 0 && nowhere.length === 0 ? soleHolder(others, inSources, material) : null;
    if (target && inSources.some((f) => !f.figure?.weak)) {
      const kept = cited
        .filter((s) => readElsewhere || facts.some((f) => material(s).holds(f)))
        .map((s) => s.n);
      const to = [...kept, target.n];
      rewrites.push({ claim, text: reciteClaim(claim.text, to) });
      recited.push({ sentence: claim.text, from: cited.map((s) => s.n), to });
      continue;
    }
    if (inSources.length === 0 && nowhere.length === 0) continue;

    const parts = [
      `The sentence "${shortened(claim.text)}" cites ${list(cited.map((s) => s.n))}, which does not contain ${listFacts(
        [...missing, ...nowhere.filter((f) => !missing.includes(f))],
      )}.`,
    ];
    if (inSources.length > 0) {
      const where = [...new Set(inSources.flatMap((f) => holdersOf(f).map((s) => s.n)))].sort(
        (a, b) => a - b,
      );
      parts.push(
        `${listFacts(inSources)} ${inSources.length === 1 ? 'is' : 'are'} in ${list(where)}: cite the source each comes from.`,
      );
    }
    if (nowhere.length > 0) {
      parts.push(
        `${listFacts(nowhere)} ${nowhere.length === 1 ? 'appears' : 'appear'} in no source: correct or remove ${nowhere.length === 1 ? 'it' : 'them'}.`,
      );
    }
    problems.push(parts.join(' '));
  }

  let answer = input.answer;
  for (const { claim, text } of rewrites.reverse()) {
    answer = answer.slice(0, claim.start) + text + answer.slice(claim.end);
  }
  return { answer, recited, problems, uncited: uncited.join('\n') };
}

/**
 * The one passage, among those not cited, that holds every given fact. A chunk and its whole page hold
 * the same words, so sources on one page count once and the first numbered of them is chosen.
 */
function soleHolder(others: Source[], facts: Fact[], material: (s: Source) => Material): Source | null {
  const holders = others.filter((s) => facts.every((f) => material(s).holds(f)));
  const pages = new Set(holders.map((s) => `${s.documentId}#${s.page}`));
  return pages.size === 1 ? holders[0]! : null;
}

/** The claim with its markers replaced by one naming `to`, where its last marker stood. */
function reciteClaim(text: string, to: number[]): string {
  const markers = findMarkers(text);
  let rewritten = text;
  for (let i = markers.length - 1; i >= 0; i--) {
    const marker = markers[i]!;
    const replacement = i === markers.length - 1 ? `[${to.join(', ')}]` : '';
    let start = marker.index;
    if (replacement === '') while (start > 0 && /[ \t]/.test(rewritten[start - 1]!)) start--;
    rewritten = rewritten.slice(0, start) + replacement + rewritten.slice(marker.index + marker.raw.length);
  }
  return rewritten;
}
