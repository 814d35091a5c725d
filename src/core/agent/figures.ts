/*
 * The figures a claim states (numbers with their units) and whether a passage holds them. Figures are
 * compared as values, so "1,000 ms" matches "1000ms" while "18.3%" never matches "183" or "18.2%".
 */

export interface Figure {
  /** As written in the claim, e.g. "$10.2 billion". */
  text: string;
  /** Where it starts in the text it was found in. */
  at: number;
  value: number;
  /** The unit in one spelling ("%", "billion", "kg"); null for a bare number. */
  unit: string | null;
  /** Decimal places as written: a claim of "18%" is held by a passage's 18.3%, not the other way round. */
  decimals: number;
  /** A bare four-digit number from 1900 to 2099: the time a claim is about, not what it measures. */
  year: boolean;
}

/** Each unit's spellings (a regex alternation, case-insensitive); the first column is how it compares. */
const UNITS: Array<[string, string]> = [
  ['%', 'percentage points?|percent|per cent|%'],
  ['thousand', 'thousand'],
  ['million', 'million|mln|mn'],
  ['billion', 'billion|bln|bn'],
  ['trillion', 'trillion|tn'],
  ['ms', 'milliseconds?|ms'],
  ['s', 'seconds?|secs?|s'],
  ['min', 'minutes?|mins?'],
  ['h', 'hours?|hrs?|h'],
  ['day', 'days?'],
  ['week', 'weeks?'],
  ['month', 'months?'],
  ['year', 'years?|yrs?'],
  ['byte', 'bytes?'],
  ['kb', 'kib|kb'],
  ['mb', 'mib|mb'],
  ['gb', 'gib|gb'],
  ['tb', 'tib|tb'],
  ['ghz', 'ghz'],
  ['mhz', 'mhz'],
  ['khz', 'khz'],
  ['hz', 'hz'],
  ['°c', '°c'],
  ['°f', '°f'],
  ['mm', 'mm'],
  ['cm', 'cm'],
  ['km', 'km'],
  ['m', 'metres?|meters?|m'],
  ['kg', 'kilograms?|kg'],
  ['mg', 'mg'],
  ['g', 'grams?|g'],
  ['t', 'tonnes?|tons?'],
  ['kwh', 'kwh'],
  ['mah', 'mah'],
  ['kw', 'kw'],
  ['w', 'watts?|w'],
  ['v', 'volts?|v'],
  ['px', 'pixels?|px'],
  ['dpi', 'dpi'],
  ['page', 'pages?'],
  ['token', 'tokens?'],
  ['times', 'times'],
  // Only after a currency sign, as in "$10.2B" or "$500k"; elsewhere a lone letter names something (10-K).
  ['k', 'k'],
  ['b', 'b'],
];
const MONEY_SCALE: Record<string, string> = { k: 'thousand', m: 'million', b: 'billion' };
const UNIT_MATCHERS = UNITS.map(([name, spellings]) => ({
  name,
  pattern: new RegExp(`^(?:${spellings})$`, 'i'),
}));
/** Scale words: "$10.2 billion" and "$10,200 million" are one amount. */
const SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

const NUMBER = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?`;
const UNIT = String.raw`(?:[^\S\n]?-?[^\S\n]?(${UNITS.map(([, s]) => s).join('|')})(?![\p{L}\p{N}]))`;
/** In a claim: not glued to a word on the left (FY2023, v2.1 and Q3 are names, not figures). */
const CLAIM_FIGURE = new RegExp(String.raw`(?<![\p{L}\p{N}_.])([$€£¥][ \t]?)?${NUMBER}${UNIT}?`, 'giu');
/** In a passage: every number, wherever it stands. */
const PASSAGE_FIGURE = new RegExp(String.raw`(?<!\d|\d[.,])([$€£¥][^\S\n]?)?${NUMBER}${UNIT}?`, 'giu');

const CURRENCY_CODES = /^(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|CNY|RMB|INR|SEK|NOK|DKK)$/;

function unitOf(written: string | undefined, money: boolean): string | null {
  if (!written) return null;
  const name = UNIT_MATCHERS.find((u) => u.pattern.test(written))?.name ?? null;
  if (money && name !== null && MONEY_SCALE[name]) return MONEY_SCALE[name];
  return name === 'k' || name === 'b' ? null : name;
}

function parse(match: RegExpMatchArray) {
  const [, currency, integer, fraction, unit] = match;
  return {
    value: Number(`${integer!.replace(/,/g, '')}${fraction ? `.${fraction}` : ''}`),
    unit: unitOf(unit, currency !== undefined),
    decimals: fraction?.length ?? 0,
    at: match.index ?? 0,
    text: match[0].trim(),
  };
}

/**
 * The figures a claim states. Left out as not being claims about the material: page locations ("page
 * 12", "pp. 3-4"), numbers glued to a word (FY2023, 10-K, Q3), bare numbers right after a capitalised
 * word (Note 12, Table 3, Orbit 3, June 30), which name or date something rather than measure it, and
 * bare whole numbers below 100: list numbering, enumerations and counts a model makes ("4 segments"),
 * which no text need state and nearly every passage holds, so checking them would tell nothing.
 */
export function findFigures(text: string): Figure[] {
  const figures: Figure[] = [];
  for (const match of text.matchAll(CLAIM_FIGURE)) {
    const [, currency, integer, fraction] = match;
    const figure = parse(match);
    const before = text.slice(0, figure.at);
    const after = text.slice(figure.at + match[0].length);
    const bare = figure.unit === null && !currency;
    if (bare && /^-?\p{L}/u.test(after)) continue;
    if (/\b(?:pages?|pp?\.?)[ \t]*(?:\d+[ \t]*(?:[-\u2013,]|and|to)[ \t]*)?$/i.test(before)) continue;
    const year = bare && !fraction && /^(?:19|20)\d\d$/.test(integer!);
    if (bare && !fraction && figure.value < 100) continue;
    // A capitalised word that only starts the sentence ("About 150 stores") names nothing.
    const named = /\b(\p{Lu}[\p{L}]*)[ \t]$/u.exec(before);
    const label =
      named && !/^[\s\d.)*-]*$/.test(before.slice(0, named.index)) && !CURRENCY_CODES.test(named[1]!);
    if (bare && !year && label) continue;
    figures.push({ ...figure, year });
  }
  return figures;
}

/** The numbers of a passage, read once so each claim can be checked against them. */
export class PassageFigures {
  private readonly numbers: Array<Pick<Figure, 'value' | 'unit' | 'decimals'>> = [];

  constructor(text: string) {
    for (const match of text.normalize('NFKC').matchAll(PASSAGE_FIGURE)) {
      this.numbers.push(parse(match));
    }
  }

  /**
   * Whether the passage states the figure: the same value (or one that rounds to it, when the claim is
   * less precise) in the same unit, or bare, as in a table whose unit is in its heading.
   */
  holds(figure: Figure): boolean {
    return this.numbers.some((n) => {
      if (figure.unit !== null && n.unit !== null && figure.unit !== n.unit) {
        const [a, b] = [SCALE[figure.unit], SCALE[n.unit]];
        return a !== undefined && b !== undefined && Math.abs(figure.value * a - n.value * b) < 1e-6 * a;
      }
      if (n.value === figure.value) return true;
      return (
        figure.decimals <= n.decimals &&
        n.value.toFixed(figure.decimals) === figure.value.toFixed(figure.decimals)
      );
    });
  }
}

/**
 * Whether a figure is worked out from two others the same claim states: a difference, sum, ratio or
 * percentage change ("fell from 36.8% to 34.6%, a drop of 2.2%"), within the rounding of its last digit.
 */
export function followsFrom(figure: Figure, others: Figure[]): boolean {
  const tolerance = 10 ** -figure.decimals;
  const near = (x: number) => Number.isFinite(x) && Math.abs(Math.abs(x) - figure.value) <= tolerance;
  for (const a of others) {
    for (const b of others) {
      if (a === b) continue;
      const [x, y] = [a.value, b.value];
      if (near(x - y) || near(x + y) || near(x / y) || near(((x - y) / y) * 100) || near((x / y) * 100))
        return true;
    }
  }
  return false;
}
