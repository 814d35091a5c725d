import { z } from 'zod';
import { QuireError } from '../../../shared/errors';
import { answerMessages } from '../prompts';
import { choiceField, objectSchema } from './schema';
import type { Tool } from './types';

const STYLES = ['short', 'detailed'] as const;

/** Why a run fails when neither the answer nor the decide role has a model. */
export const NO_ANSWER_MODEL = 'No model is configured to write answers.';

export const answer: Tool<{ style: (typeof STYLES)[number] }> = {
  name: 'answer',
  description: 'Write the final answer from the sources found so far, citing them as [n]. Ends the run.',
  inputSchema: z.object({ style: z.enum(STYLES).default('short') }),
  modelInputSchema: objectSchema({ style: choiceField(STYLES, 'answer length') }),
  ends: true,
  isAvailable: () => true,
  defaultInputs: () => ({ style: 'short' }),
  async *run(inputs, { state, ports, limits, signal, emitToken }) {
    const model = (await ports.models.chatModel('answer')) ?? (await ports.models.chatModel('decide'));
    if (!model) throw new QuireError('model_unavailable', NO_ANSWER_MODEL);
    let streamed = false;
    const response = await model.chat({
      messages: answerMessages(state, limits, inputs.style),
      maxTokens: limits.answerMaxTokens,
      temperature: 0,
      signal,
      onToken: (text) => {
        streamed = true;
        emitToken(text);
      },
    });
    // Providers that do not stream still show the draft as it arrives: in one piece.
    if (!streamed && response.text) emitToken(response.text);
    yield { type: 'result', name: 'draft', text: response.text.trim(), items: 1, summary: 'answer drafted' };
  },
};
