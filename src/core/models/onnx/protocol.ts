/*
 * The requests the parent sends the page embedder's host child; replies and cancellation are the
 * common host envelope (../host/protocol.ts).
 */
import type { HostCancel } from '../host/protocol';
import type { OnnxPageEmbedderLoadOptions } from './colModernVBertEngine';

export type PageEmbedderRequest =
  | { type: 'load'; id: number; options: OnnxPageEmbedderLoadOptions }
  | { type: 'embedImage'; id: number; image: Uint8Array }
  | { type: 'embedQueries'; id: number; queries: string[] }
  | { type: 'dispose'; id: number };

export type PageEmbedderMessage = PageEmbedderRequest | HostCancel;
