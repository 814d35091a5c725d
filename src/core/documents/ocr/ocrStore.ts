import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../common/atomicFile';
import type { StoredFiles } from '../../common/storedFiles';
import { QuireError } from '../../../shared/errors';
import { isDiskFull } from '../../common/diskSpace';

/**
 * One recognised word: text, its box as shares of the page (x, y, width, height in 0..1, origin
 * top-left) and the engine's confidence (0..1). Stored as a tuple: a page holds hundreds.
 */
const StoredWord = z.tuple([z.string(), z.number(), z.number(), z.number(), z.number(), z.number()]);
export type StoredWord = z.infer<typeof StoredWord>;

/** What OCR made of one page: the cache entry, and all that merging it into the text needs. */
export const OcrPageRecord = z.object({
  version: z.literal(1),
  /** The engine and languages that read it: a page read with other settings is read again. */
  engine: z.string(),
  languages: z.array(z.string()),
  /** The quarter turn that made the page upright, and the deskew after it (radians). */
  turn: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]),
  deskewRadians: z.number(),
  /** True when no check could tell which way up the page is, and `turn` is the likelier guess. */
  turnGuessed: z.boolean().optional(),
  /** Mean word confidence weighted by letters, 0..1; null when no word was found. */
  confidence: z.number().min(0).max(1).nullable(),
  /** Lines in reading order. */
  lines: z.array(z.array(StoredWord)),
  /** Why the page could not be read, when it could not. */
  problem: z.string().nullable(),
  /** A vision model's reading of a page OCR read poorly: replaces the words' text, keeps their boxes. */
  transcription: z.object({ model: z.string(), text: z.string() }).nullable().default(null),
});
export type OcrPageRecord = z.infer<typeof OcrPageRecord>;

/** The settings a record must match to be reused. */
export interface OcrKey {
  engine: string;
  languages: readonly string[];
}

export function sameKey(record: OcrKey, key: OcrKey): boolean {
  return record.engine === key.engine && record.languages.join('+') === key.languages.join('+');
}

/**
 * OCR results by content, one file per page: `<root>/<hash[0:2]>/<hash>/p<page>.json`, written
 * atomically, so a run killed midway keeps every page it finished and a resumed run reads only
 * the rest. A renamed or copied file has the same hash and reuses them.
 */
export class OcrStore {
  /**
   * @param root the local folder of OCR results (in a shared library: the writer's copy)
   * @param shared a shared library's copy, which every write goes to and a missing page comes from
   */
  constructor(
    readonly root: string,
    private shared: StoredFiles | null = null,
  ) {}

  /** Keeps OCR results in a shared library from now on (set when the library opens). */
  shareThrough(files: StoredFiles | null): void {
    this.shared = files;
  }

  /** Copies pages read by the document workers (written to the local root) to the shared library. */
  async publish(contentHash: string, pages: readonly number[]): Promise<void> {
    const shared = this.shared;
    if (!shared) return;
    for (const page of pages) {
      const bytes = await readFile(this.file(contentHash, page)).catch(() => null);
      if (bytes) await shared.upload(this.relative(contentHash, page), new Uint8Array(bytes));
    }
  }

  private relative(contentHash: string, page: number): string {
    return `${contentHash.slice(0, 2)}/${contentHash}/p${page}.json`;
  }

  private folder(contentHash: string): string {
    if (!/^[0-9a-f]{16,128}$/.test(contentHash))
      throw new QuireError('invalid_input', `Not a content hash: ${contentHash}`);
    return join(this.root, contentHash.slice(0, 2), contentHash);
  }

  private file(contentHash: string, page: number): string {
    if (!Number.isInteger(page) || page < 1) throw new QuireError('invalid_input', `No page ${page}.`);
    return join(this.folder(contentHash), `p${page}.json`);
  }

  /** The record of a page read with these settings, or null (missing, other settings, unreadable file). */
  async get(contentHash: string, page: number, key: OcrKey): Promise<OcrPageRecord | null> {
    let raw: string;
    try {
      raw = await readFile(this.file(contentHash, page), 'utf8');
    } catch {
      const bytes = this.shared ? await this.shared.download(this.relative(contentHash, page)) : null;
      if (!bytes) return null;
      raw = new TextDecoder().decode(bytes);
    }
    try {
      const parsed = OcrPageRecord.safeParse(JSON.parse(raw));
      return parsed.success && sameKey(parsed.data, key) ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** Every page of this content read with these settings. */
  async all(contentHash: string, key: OcrKey): Promise<Map<number, OcrPageRecord>> {
    const records = new Map<number, OcrPageRecord>();
    let names: string[];
    try {
      names = await readdir(this.folder(contentHash));
    } catch {
      return records;
    }
    for (const name of names) {
      const page = /^p(\d+)\.json$/.exec(name)?.[1];
      if (!page) continue;
      const record = await this.get(contentHash, Number(page), key);
      if (record) records.set(Number(page), record);
    }
    return records;
  }

  async put(contentHash: string, page: number, record: OcrPageRecord): Promise<void> {
    try {
      const text = JSON.stringify(record);
      await writeFileAtomic(this.file(contentHash, page), text);
      await this.shared?.upload(this.relative(contentHash, page), new TextEncoder().encode(text));
    } catch (error) {
      if (isDiskFull(error))
        throw new QuireError('disk_full', 'The disk is full: OCR results cannot be saved.');
      throw error;
    }
  }

  /** Deletes every OCR result of one content. */
  async remove(contentHash: string): Promise<void> {
    await rm(this.folder(contentHash), { recursive: true, force: true });
    await this.shared?.removeFolder(`${contentHash.slice(0, 2)}/${contentHash}`);
  }
}
