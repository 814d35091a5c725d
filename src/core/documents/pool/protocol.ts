import type { ErrorInfo } from '../../../shared/errors';
import type { DocumentKind } from '../../../shared/domain/library';
import type { DrawablePage } from '../render/laidOutRaster';
import type { PageImageRef, ParsedDocument } from '../types';

/** Messages between the document pool and its worker threads. */
export type DocumentJob =
  | { type: 'parse'; path: string; kind: DocumentKind; password?: string }
  | { type: 'countPages'; path: string; kind: DocumentKind; password?: string }
  | { type: 'pageText'; path: string; kind: DocumentKind; page: number }
  | {
      type: 'render';
      /** Its format's reader draws the pages. */
      kind: DocumentKind;
      path: string;
      storeRoot: string;
      contentHash: string;
      pages?: number[];
      password?: string;
      longEdge?: number;
    };

export interface JobRequest {
  id: number;
  job: DocumentJob;
}

export type JobResponse =
  | { id: number; ok: true; value: ParsedDocument | PageImageRef[] | number | DrawablePage }
  | { id: number; ok: false; error: ErrorInfo };
