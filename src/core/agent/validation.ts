/*
 * The gate every answer draft passes before it is shown: enough evidence gathered, every marker
 * grounded, each cited sentence held by what it cites (claimCheck.ts), every other quote and technical
 * term found in the material, missing coverage admitted.
 */
import { checkClaims, compact, findQuotes, findTechnicalTerms, type Recitation } from './claimCheck';
import type { Requirements } from './constraints';
import { findMarkers } from './markers';
import type { SourceRegistry } from './sources';
import { contentWords, normalizeForMatch } from './text';

export interface ValidationInput {
  answer: string;
  question: string;
  requirements: Requirements;
  sources: SourceRegistry;
  /** Other evidence the answer may draw on: file tool results, vision readings, summaries. */
  otherEvidence: string;
  searches: number;
  /** A follow-up leans on earlier turns, so its own words say little about coverage. */
  followUp?: boolean;
}

export interface ValidationResult {
  passed: boolean;
  problems: string[];
  /** The draft as checked, with sentences re-cited to the passages that hold their facts. */
  answer: string;
  /** What was re-cited; empty when every sentence cited its own material. */
  recited: Recitation[];
}

const DISCLOSURE =
  /\b(?:not (?:documented|mentioned|covered|stated|specified|described|found|available|included|provided)|(?:no|insufficient) (?:information|mention|data|evidence|details?)|(?:do|does|did) not (?:say|mention|cover|contain|include|specify|state|provide)|(?:don't|doesn't|didn't) (?:say|mention|cover|contain|include|specify|state|provide)|could not (?:find|verify|confirm)|couldn't (?:find|verify|confirm)|unable to (?:find|determine|verify)|cannot (?:be )?(?:determine|answer|find|verify)d?|not answerable|unknown from)\b/i;

/** Whether the text admits that the documents do not cover something. */
export function disclosesInsufficiency(text: string): boolean {
  return DISCLOSURE.test(text);
}

export function validateAnswer(input: ValidationInput): ValidationResult {
  const problems: string[] = [];
  const { answer, requirements, sources } = input;
  const sourceTexts = sources.all().map((s) => s.text);
  const evidence = normalizeForMatch([...sourceTexts, input.otherEvidence].join('\n'));
  const compactEvidence = compact([...sourceTexts, input.otherEvidence, input.question].join('\n'));

  if (answer.trim() === '') problems.push('The answer is empty.');
  if (input.searches < requirements.minSearches) {
    problems.push(
      `Only ${input.searches} search(es) were run; at least ${requirements.minSearches} are required.`,
    );
  }
  const opened = sources.openedCount();
  if (opened < requirements.minOpened) {
    problems.push(
      `Only ${opened} source(s) were opened; open at least ${requirements.minOpened} before answering.`,
    );
  }

  const markers = findMarkers(answer);
  const unknown = [...new Set(markers.flatMap((m) => m.numbers).filter((n) => !sources.get(n)))];
  if (unknown.length > 0) {
    problems.push(
      `${unknown.map((n) => `[${n}]`).join(', ')} refer(s) to nothing retrieved; cite only the numbered sources.`,
    );
  }
  const grounded = markers.some((m) => m.numbers.some((n) => sources.get(n)));
  if (requirements.citationsRequired && sources.size > 0 && !grounded && !disclosesInsufficiency(answer)) {
    problems.push('The answer cites no source; add [n] after each claim.');
  }

  const claims = checkClaims(input);
  problems.push(...claims.problems);
  // Sentences that cite nothing retrieved are held to all the evidence at once.
  for (const quote of findQuotes(claims.uncited)) {
    if (!evidence.includes(normalizeForMatch(quote))) {
      problems.push(`The quote "${quote.slice(0, 80)}" does not match the text of any source.`);
    }
  }
  if (requirements.exactQuote && findQuotes(answer).length === 0) {
    problems.push('The question asks for an exact quote; quote the source in double quotes.');
  }

  const ungrounded = findTechnicalTerms(claims.uncited).filter(
    (term) => !compactEvidence.includes(compact(term)),
  );
  if (ungrounded.length > 0) {
    problems.push(
      `These terms appear in no source: ${ungrounded.slice(0, 8).join(', ')}. Remove them or cite where they come from.`,
    );
  }

  const lowered = answer.toLowerCase();
  for (const section of requirements.sections) {
    if (!lowered.includes(section.toLowerCase()))
      problems.push(`The required section "${section}" is missing.`);
  }

  const thin = isThin(input, evidence);
  if ((thin || (requirements.discloseMissing && sources.size === 0)) && !disclosesInsufficiency(answer)) {
    problems.push('The sources barely cover the question; say plainly what the documents do not cover.');
  }
  return { passed: problems.length === 0, problems, answer: claims.answer, recited: claims.recited };
}

/** Too little material: nothing found, or most of the question's words appear in none of it. */
function isThin(input: ValidationInput, evidence: string): boolean {
  if (input.requirements.aboutFiles) return input.otherEvidence.trim() === '';
  if (input.sources.size === 0 && input.otherEvidence.trim() === '') return true;
  if (input.followUp) return false;
  const words = contentWords(input.question).filter((w) => w.length > 2);
  if (words.length === 0) return false;
  const evidenceWords = new Set(evidence.split(' '));
  const covered = words.filter((w) => evidenceWords.has(w) || evidence.includes(w)).length;
  return covered / words.length < 0.5;
}
