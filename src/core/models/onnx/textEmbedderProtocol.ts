/*
 * The requests the parent sends the text embedder's host child; replies and cancellation are the
 * common host envelope (../host/protocol.ts).
 */
import type { OnnxTextEmbedderLoadOptions, TextKind } from './textEmbedderEngine';

export type TextEmbedderRequest =
  | { type: 'load'; id: number; options: OnnxTextEmbedderLoadOptions }
  | { type: 'embed'; id: number; texts: string[]; kind: TextKind }
  | { type: 'dispose'; id: number };
