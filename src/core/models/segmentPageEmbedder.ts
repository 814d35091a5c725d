/*
 * A late-interaction page embedder for machines with no ColQwen server: a page's vectors are the dense
 * embeddings of its text segments, a query's vectors those of its phrases. MaxSim then matches each
 * query phrase with its best line on the page.
 */
import type { CallOptions, PageEmbedder, PageInput, TextEmbedder } from './types';

export interface SegmentPageEmbedderOptions {
  /** Most vectors per page: more means finer matching, a bigger index and slower search. */
  maxSegments?: number;
  /** Segments shorter than this are merged with their neighbour: a lone heading embeds poorly. */
  minSegmentChars?: number;
  /** Most vectors per query, the whole query included. */
  maxQueryVectors?: number;
}

const DEFAULTS = { maxSegments: 64, minSegmentChars: 40, maxQueryVectors: 8 } as const;

/** Joins short neighbours until each segment is long enough to mean something. */
export function mergeShortSegments(segments: string[], minChars: number): string[] {
  const merged: string[] = [];
  let pending = '';
  for (const raw of segments) {
    const segment = raw.replace(/\s+/g, ' ').trim();
    if (segment === '') continue;
    pending = pending === '' ? segment : `${pending} ${segment}`;
    if (pending.length >= minChars) {
      merged.push(pending);
      pending = '';
    }
  }
  if (pending !== '') {
    if (merged.length > 0) merged[merged.length - 1] = `${merged[merged.length - 1]} ${pending}`;
    else merged.push(pending);
  }
  return merged;
}

/** Groups consecutive segments into at most `max` segments of similar counts, keeping reading order. */
export function capSegments(segments: string[], max: number): string[] {
  if (segments.length <= max) return segments;
  const groups: string[] = [];
  for (let group = 0; group < max; group++) {
    const from = Math.floor((group * segments.length) / max);
    const to = Math.floor(((group + 1) * segments.length) / max);
    groups.push(segments.slice(from, to).join(' '));
  }
  return groups;
}

/** The whole query first, then its sentences and clauses, without repeats. */
export function queryPhrases(query: string, max: number): string[] {
  const whole = query.replace(/\s+/g, ' ').trim();
  if (whole === '') return [];
  const phrases = whole
    .split(/[.?!;:,]+\s*|\s+(?:and|or|but|versus|vs\.?)\s+/i)
    .map((phrase) => phrase.trim().replace(/^(?:and|or|but)\s+/i, ''))
    .filter((phrase) => phrase.split(' ').length >= 2 || phrase.length >= 6);
  const unique = [...new Set([whole, ...phrases])];
  return unique.slice(0, Math.max(1, max));
}

export function l2Normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm === 0 || !Number.isFinite(norm)) return vector;
  const normalized = new Float32Array(vector.length);
  for (let index = 0; index < vector.length; index++) normalized[index] = vector[index]! / norm;
  return normalized;
}

export class SegmentPageEmbedder implements PageEmbedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly options: Required<SegmentPageEmbedderOptions>;

  constructor(
    private readonly textEmbedder: TextEmbedder,
    options: SegmentPageEmbedderOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.id = `segments(${textEmbedder.id})`;
    this.dimensions = textEmbedder.dimensions;
  }

  /** The segments a page is embedded as; exposed so the index can show what matched. */
  pageSegments(page: PageInput): string[] {
    return capSegments(
      mergeShortSegments(page.segments, this.options.minSegmentChars),
      this.options.maxSegments,
    );
  }

  async embedPage(page: PageInput, options?: CallOptions): Promise<Float32Array[] | null> {
    const segments = this.pageSegments(page);
    if (segments.length === 0) return null;
    const vectors = await this.textEmbedder.embed(segments, options);
    return vectors.map(l2Normalize);
  }

  async embedQuery(query: string, options?: CallOptions): Promise<Float32Array[]> {
    const phrases = queryPhrases(query, this.options.maxQueryVectors);
    if (phrases.length === 0) return [];
    const vectors = await this.textEmbedder.embed(phrases, { ...options, kind: 'query' });
    return vectors.map(l2Normalize);
  }
}
