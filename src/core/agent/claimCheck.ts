/*
 * What an answer claims, checked against what it cites: each sentence's figures, technical terms and
 * quotes must be in the passages its markers name. A claim whose facts are in one other retrieved
 * passage is re-cited to it; one whose facts are in none is reported, so the draft is redone. The
 * finders of quotes and terms live here too: validation.ts holds uncited sentences to all the evidence.
 */
import { basename } from 'node:path';
import { findFigures, followsFrom, PassageFigures, type Figure } from './figures';
import { findMarkers, rewriteMarkers } from './markers';
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
const ABBREVIATIONS = new Set(
  'e.g i.e etc vs no nos p pp fig approx inc corp co ltd mr mrs dr st u.s cf al'.split(' '),
);
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

/** A cited sentence holds, moves to other markers, or is a problem for the next draft to fix. */
type Verdict = { kind: 'holds' } | { kind: 'recite'; to: number[] } | { kind: 'problem'; text: string };

/** The material of one run, read once, against which each cited sentence is judged. */
class ClaimJudge {
  private readonly materials = new Map<number, Material>();
  private readonly question: Material;
  private readonly other: Material;
  /** Everything read, file names included: where a year must appear. */
  private readonly everything: PassageFigures;

  constructor(private readonly input: ClaimCheckInput) {
    this.question = new Material(input.question);
    this.other = new Material(input.otherEvidence);
    const { sources } = input;
    this.everything = new PassageFigures(
      [input.question, input.otherEvidence, ...sources.all().flatMap((s) => [s.text, s.path])].join('\n'),
    );
  }

  private material(source: Source): Material {
    let found = this.materials.get(source.n);
    if (!found) this.materials.set(source.n, (found = new Material(source.text)));
    return found;
  }

  judge(claim: Claim, cited: Source[]): Verdict {
    const { facts, years } = factsOf(claim.text);
    const holds = (s: Source, f: Fact) => this.material(s).holds(f);
    const held = facts.filter((f) => cited.some((s) => holds(s, f)));
    const heldFigures = held.flatMap((f) => f.figure ?? []);
    // Names the user wrote are the subject of the claim, not a fact it reports.
    const missing = facts.filter(
      (f) =>
        !held.includes(f) &&
        !(f.kind === 'term' && this.question.holds(f)) &&
        !(f.figure && followsFrom(f.figure, heldFigures)),
    );
    const lostYears = this.input.followUp ? [] : years.filter((y) => !this.everything.holds(y));
    if (missing.length === 0 && lostYears.length === 0) return { kind: 'holds' };

    const others = this.input.sources.all().filter((s) => !cited.includes(s));
    const holdersOf = (fact: Fact) => others.filter((s) => holds(s, fact));
    const inSources = missing.filter((f) => holdersOf(f).length > 0);
    // What no passage holds may have been read from a page image or a file; that stands as read.
    const readElsewhere = missing.filter((f) => !inSources.includes(f) && this.other.holds(f));
    const nowhere = [
      ...missing.filter((f) => !inSources.includes(f) && !readElsewhere.includes(f)),
      ...lostYears.map((y): Fact => ({ text: y.text, at: y.at, figure: y, kind: 'figure' })),
    ];
    if (inSources.length === 0 && nowhere.length === 0) return { kind: 'holds' };

    const target = nowhere.length === 0 ? soleHolder(others, inSources, (s) => this.material(s)) : null;
    if (target) {
      // Markers that hold part of the claim, or whose page a reading may have been of, stay.
      const kept = cited.filter((s) => readElsewhere.length > 0 || facts.some((f) => holds(s, f)));
      return { kind: 'recite', to: [...kept.map((s) => s.n), target.n] };
    }

    const lacking = [...inSources, ...nowhere].sort((a, b) => a.at - b.at);
    const parts = [
      `The sentence "${shortened(claim.text)}" cites ${list(cited.map((s) => s.n))}, which does not contain ${listFacts(lacking)}.`,
    ];
    if (inSources.length > 0) {
      const where = [...new Set(inSources.flatMap((f) => holdersOf(f).map((s) => s.n)))].sort(
        (a, b) => a - b,
      );
      const verb = inSources.length === 1 ? 'is' : 'are';
      parts.push(`${listFacts(inSources)} ${verb} in ${list(where)}: cite the source each comes from.`);
    }
    if (nowhere.length > 0) {
      const [it, they, is, comes] =
        nowhere.length === 1 ? ['it', 'it', 'is', 'comes'] : ['them', 'they', 'are', 'come'];
      const worked = nowhere.some((f) => f.figure && !f.figure.year)
        ? `, or, if ${they} ${is} worked out, state the cited figures ${they} ${comes} from`
        : '';
      const appear = nowhere.length === 1 ? 'appears' : 'appear';
      parts.push(`${listFacts(nowhere)} ${appear} in no source: correct or remove ${it}${worked}.`);
    }
    return { kind: 'problem', text: parts.join(' ') };
  }
}

/** Checks every sentence that cites a retrieved passage; the rest is left for the whole-evidence check. */
export function checkClaims(input: ClaimCheckInput): ClaimCheckResult {
  const judge = new ClaimJudge(input);
  const problems: string[] = [];
  const recited: Recitation[] = [];
  const uncited: string[] = [];
  let answer = input.answer;
  // From the last sentence back, so a rewrite leaves the offsets of those before it intact.
  for (const claim of splitClaims(input.answer).reverse()) {
    const numbers = [...new Set(findMarkers(claim.text).flatMap((m) => m.numbers))];
    const cited = numbers.flatMap((n) => input.sources.get(n) ?? []);
    if (cited.length === 0) {
      uncited.unshift(claim.text);
      continue;
    }
    const verdict = judge.judge(claim, cited);
    if (verdict.kind === 'holds') continue;
    if (verdict.kind === 'problem') {
      problems.unshift(verdict.text);
      continue;
    }
    answer = answer.slice(0, claim.start) + reciteClaim(claim.text, verdict.to) + answer.slice(claim.end);
    recited.unshift({ sentence: claim.text, from: cited.map((s) => s.n), to: verdict.to });
  }
  return { answer, recited, problems, uncited: uncited.join('\n') };
}

/**
 * The one passage, among those not cited, that holds every given fact. A chunk and its whole page hold
 * the same words, so sources on one page count once and the first numbered of them is chosen.
 */
function soleHolder(others: Source[], facts: Fact[], material: (s: Source) => Material): Source | null {
  if (facts.length === 0) return null;
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

/** For the trace, in the user's words: 'Re-cited "…" from report.pdf p.1 to report.pdf p.2, …'. */
export function describeRecitation(recitation: Recitation, sources: SourceRegistry): string {
  const pages = (numbers: number[]) =>
    [
      ...new Set(numbers.flatMap((n) => sources.get(n) ?? []).map((s) => `${basename(s.path)} p.${s.page}`)),
    ].join(' and ');
  const sentence = rewriteMarkers(recitation.sentence, () => null).trim();
  const shown = sentence.length > 100 ? `${sentence.slice(0, 97)}...` : sentence;
  const [from, to] = [pages(recitation.from), pages(recitation.to)];
  // A chunk and its whole page are one place to the user: only the passage cited there changes.
  if (from === to) return `Re-cited "${shown}" to the passage on ${to} that holds what it states.`;
  return `Re-cited "${shown}" from ${from} to ${to}, which holds what it states.`;
}
