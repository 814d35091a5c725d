/*
 * ColModernVBERT's processing settings, read from its export's JSON files. Where a file is silent the
 * published defaults apply: Idefics3-style tiling into 512 px tiles after scaling the long edge to
 * 2048 px, 64 tokens per tile, pixels scaled to [-1, 1], LANCZOS resampling.
 */
import { QuireError } from '../../../shared/errors';
import type { JsonObject, PageEmbedderFiles } from './pageEmbedderFiles';

export interface ImageSettings {
  /** Scale the image so its long edge is `longestEdge` (up or down) before tiling. */
  resize: boolean;
  longestEdge: number;
  /** Cut the image into `tileSize` tiles plus a global view; otherwise one square view. */
  split: boolean;
  tileSize: number;
  rescaleFactor: number;
  normalize: boolean;
  mean: [number, number, number];
  std: [number, number, number];
}

export interface TextSettings {
  /** Tokens that stand for one tile in the prompt. */
  imageSeqLen: number;
  /** Side of the square zero image fed with text-only inputs. */
  visionImageSize: number;
  padId: number;
  padLeft: boolean;
  /** Longest token sequence the model takes (queries are cut to it). */
  maxLength: number;
}

export interface ColModernVBertSettings {
  image: ImageSettings;
  text: TextSettings;
}

const DEFAULTS = {
  longestEdge: 2048,
  tileSize: 512,
  imageSeqLen: 64,
  maxLength: 8192,
} as const;

function object(value: unknown): JsonObject {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
}

function positive(value: unknown, fallback: number, what: string): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new QuireError('model_failed', `The page embedder's ${what} is not a positive number.`);
  }
  return value;
}

function triple(value: unknown, fallback: number, what: string): [number, number, number] {
  if (value === undefined || value === null) return [fallback, fallback, fallback];
  const list = Array.isArray(value) ? value : [value, value, value];
  if (list.length !== 3 || !list.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    throw new QuireError('model_failed', `The page embedder's ${what} must be three numbers.`);
  }
  return list as [number, number, number];
}

export function colModernVBertSettings(files: Omit<PageEmbedderFiles, 'modelPath'>): ColModernVBertSettings {
  const pre = files.preprocessor;
  const processorType = pre.image_processor_type;
  if (processorType !== undefined && !/Idefics3|ModernVBert|SmolVLM/i.test(String(processorType))) {
    throw new QuireError(
      'model_failed',
      `The page embedder's image processor is ${String(processorType)}; only Idefics3-style (ColModernVBERT) models are supported.`,
    );
  }
  const normalize = pre.do_normalize !== false;
  const image: ImageSettings = {
    resize: pre.do_resize !== false,
    longestEdge: positive(object(pre.size).longest_edge, DEFAULTS.longestEdge, 'size.longest_edge'),
    split: pre.do_image_splitting !== false,
    tileSize: positive(object(pre.max_image_size).longest_edge, DEFAULTS.tileSize, 'max_image_size'),
    rescaleFactor: pre.do_rescale === false ? 1 : positive(pre.rescale_factor, 1 / 255, 'rescale_factor'),
    normalize,
    mean: triple(pre.image_mean, 0.5, 'image_mean'),
    std: triple(pre.image_std, 0.5, 'image_std'),
  };
  const padding = object(files.tokenizer.padding);
  const configPad = files.config.pad_token_id;
  const tokenizerConfig = files.tokenizerConfig;
  const limits = [tokenizerConfig.model_max_length, tokenizerConfig.max_length].filter(
    (n): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0,
  );
  const text: TextSettings = {
    imageSeqLen: positive(files.processor.image_seq_len, DEFAULTS.imageSeqLen, 'image_seq_len'),
    visionImageSize: positive(
      object(files.config.vision_config).image_size,
      image.tileSize,
      'vision_config.image_size',
    ),
    padId:
      typeof padding.pad_id === 'number' ? padding.pad_id : typeof configPad === 'number' ? configPad : 0,
    padLeft: String(padding.direction ?? tokenizerConfig.padding_side ?? 'right').toLowerCase() === 'left',
    maxLength: limits.length > 0 ? Math.min(...limits) : DEFAULTS.maxLength,
  };
  return { image, text };
}
