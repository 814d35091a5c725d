/*
 * ColModernVBERT's inputs as token ids: a page image is a fixed chat-style prompt whose `<image>`
 * stands for every tile's tokens (row and column markers, then the global view); a query is its text
 * followed by ten `<end_of_utterance>` tokens, which give it spare vectors to match with (ColPali's
 * query augmentation). Tokenization follows the export's tokenizer.json, special tokens included.
 */
import { Tokenizer } from '@huggingface/tokenizers';
import { QuireError } from '../../../shared/errors';
import type { TextSettings } from './colModernVBertSettings';
import type { JsonObject } from './pageEmbedderFiles';

export const IMAGE_PROMPT = '<|begin_of_text|>User:<image>Describe the image.<end_of_utterance>\nAssistant:';
export const QUERY_AUGMENTATION = '<end_of_utterance>'.repeat(10);

const FAKE = '<fake_token_around_image>';
const GLOBAL = '<global-img>';

/** The text that stands for an image cut into `rows x cols` tiles (0 x 0: one tile, no grid). */
export function imageTokensText(rows: number, cols: number, imageSeqLen: number): string {
  const tile = '<image>'.repeat(imageSeqLen);
  const globalView = `${FAKE}${GLOBAL}${tile}${FAKE}`;
  if (rows === 0 || cols === 0) return globalView;
  let text = '';
  for (let row = 1; row <= rows; row++) {
    for (let col = 1; col <= cols; col++) text += `${FAKE}<row_${row}_col_${col}>${tile}`;
    text += '\n';
  }
  return `${text}\n${globalView}`;
}

export interface TokenBatch {
  /** `batch x length`, padded on the tokenizer's side. */
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  batch: number;
  length: number;
}

export class PromptTokenizer {
  private readonly tokenizer: Tokenizer;
  private readonly imageTokenId: number;

  constructor(
    tokenizerJson: JsonObject,
    tokenizerConfig: JsonObject,
    private readonly settings: TextSettings,
  ) {
    this.tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
    const imageId = this.tokenizer.token_to_id('<image>');
    if (imageId === undefined) {
      throw new QuireError(
        'model_failed',
        'The page embedder’s tokenizer has no <image> token: it is not a ColModernVBERT-style model.',
      );
    }
    this.imageTokenId = imageId;
  }

  /** Ids of the prompt for one image cut into `rows x cols` tiles; checks every tile got its tokens. */
  imageIds(rows: number, cols: number, tiles: number): number[] {
    const prompt = IMAGE_PROMPT.replace('<image>', imageTokensText(rows, cols, this.settings.imageSeqLen));
    const ids = this.tokenizer.encode(prompt).ids;
    const imageTokens = ids.filter((id) => id === this.imageTokenId).length;
    if (imageTokens !== tiles * this.settings.imageSeqLen) {
      throw new QuireError(
        'model_failed',
        `The page embedder's tokenizer made ${imageTokens} image tokens for ${tiles} tiles of ${this.settings.imageSeqLen}.`,
      );
    }
    return ids;
  }

  /** Ids of a query, augmented and cut to the model's longest input. */
  queryIds(query: string): number[] {
    const ids = this.tokenizer.encode(query + QUERY_AUGMENTATION).ids;
    return ids.slice(0, this.settings.maxLength);
  }

  /** Pads sequences to the longest, on the tokenizer's side, with the mask marking real tokens. */
  batch(sequences: number[][]): TokenBatch {
    const length = Math.max(1, ...sequences.map((ids) => ids.length));
    const inputIds = new BigInt64Array(sequences.length * length).fill(BigInt(this.settings.padId));
    const attentionMask = new BigInt64Array(sequences.length * length);
    sequences.forEach((ids, row) => {
      const start = row * length + (this.settings.padLeft ? length - ids.length : 0);
      ids.forEach((id, i) => {
        inputIds[start + i] = BigInt(id);
        attentionMask[start + i] = 1n;
      });
    });
    return { inputIds, attentionMask, batch: sequences.length, length };
  }
}
