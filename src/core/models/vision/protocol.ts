/*
 * The requests the parent sends the vision model's host child; replies and cancellation are the
 * common host envelope (../host/protocol.ts).
 */
import type { HostCancel } from '../host/protocol';

export interface VisionLoadOptions {
  /** The language model's GGUF. */
  modelPath: string;
  /** The projector GGUF (`mmproj`) that turns an image into tokens for that model. */
  projectorPath: string;
  /** Tokens the context holds: the prompt, every image's tokens and the answer. Defaults to 4096. */
  contextSize?: number;
  /** CPU threads; 0 lets llama.cpp decide. Defaults to 0. */
  threads?: number;
  /** `'auto'` offloads to Metal/CUDA/Vulkan where the build has it; `false` keeps to the CPU. */
  gpu?: 'auto' | false;
}

export interface VisionLoadInfo {
  modelPath: string;
  projectorPath: string;
  contextSize: number;
  /** Whether the projector reads images (some projectors take audio only). */
  vision: boolean;
}

export interface VisionMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
  /** PNG or JPEG bytes: llama.cpp's image reader takes no WebP. */
  images?: Uint8Array[];
}

export interface VisionChatRequest {
  messages: VisionMessage[];
  maxTokens?: number;
  temperature?: number;
  /** A JSON Schema the answer must satisfy (llama.cpp turns it into a grammar). */
  jsonSchema?: Record<string, unknown>;
  /** Sends each text piece back as a `token` message. */
  stream: boolean;
}

export interface VisionChatResult {
  text: string;
  outputTokens: number;
}

export type VisionRequest =
  | { type: 'load'; id: number; options: VisionLoadOptions }
  | { type: 'chat'; id: number; request: VisionChatRequest }
  | { type: 'dispose'; id: number };

export type VisionMessageToHost = VisionRequest | HostCancel;
