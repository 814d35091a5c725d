import type { AnswerStatus } from '../../shared/domain/agent';
import { disclosesInsufficiency } from './validation';

export interface KeptAnswer {
  /** The answer as shown, after grounding. */
  text: string;
  /** Whether the last draft passed the validation gate. */
  passed: boolean;
  /** Grounded citations (markers that point at something retrieved). */
  citations: number;
  /** The question is about the files themselves; the file listing is its evidence, not a page. */
  aboutFiles: boolean;
}

/**
 * The one rule for what a finished answer is called. "Answered" is earned: the check passed and the
 * answer cites a page. An answer that says the documents do not cover the question, and cites
 * nothing, is declined; anything else that failed the check, or passed without a citation, is unverified.
 */
export function answerStatus(
  answer: KeptAnswer,
): Extract<AnswerStatus, 'answered' | 'unverified' | 'declined'> {
  if (answer.passed && (answer.citations > 0 || answer.aboutFiles)) return 'answered';
  if (answer.citations === 0 && disclosesInsufficiency(answer.text)) return 'declined';
  return 'unverified';
}
