/*
 * How a resolved role is described: who serves it, from where, and the words used to say so. Every
 * resolver (roles.ts) builds its answer from these, so the sentences the user reads stay alike.
 */
import type { ModelRole, RoleResolution } from '../../shared/domain/models';
import type { ServerInventory } from './detection/detectServers';
import type { ModelCapability, ServedModel } from './detection/modelCapabilities';
import { can } from './detection/modelCapabilities';

export interface ResolvedRole extends RoleResolution {
  /** `segments`: page vectors built from the embed role's text embedder. */
  via: 'server' | 'local' | 'segments' | 'none';
  supportsImages: boolean;
  apiKey?: string;
  /** The projector (`mmproj`) of a vision model run in-process. */
  projectorPath?: string;
}

export const ROLE_ORDER: readonly ModelRole[] = ['decide', 'answer', 'embed', 'pageEmbed', 'see'];

const ROLE_NEEDS: Record<ModelRole, ModelCapability> = {
  decide: 'chat',
  answer: 'chat',
  see: 'vision',
  embed: 'embed',
  pageEmbed: 'multiVector',
};

export const WHAT: Record<ModelRole, string> = {
  decide: 'chat model',
  answer: 'chat model',
  see: 'vision model',
  embed: 'embedding model',
  pageEmbed: 'multi-vector (ColQwen/ColPali) model',
};

export const GENERIC_ADVICE: Record<ModelRole, string> = {
  decide:
    'run `quire models setup`, pull a chat model with Ollama, or put a GGUF chat model in the models folder',
  answer:
    'run `quire models setup`, pull a chat model with Ollama, or put a GGUF chat model in the models folder',
  embed: 'run `quire models setup`, pull an embedding model with Ollama, or start an embeddings server',
  see: 'run `quire models setup` or pull a vision model with Ollama; until then answers read page text only',
  pageEmbed:
    'page-image search needs a page embedder: run `quire models setup` (ColModernVBERT), give an ONNX export with --page-embedder, or start a ColQwen server; until then page vectors come from the text embedder',
};

export function suits(model: ServedModel, role: ModelRole): boolean {
  if (role === 'embed') return can(model, 'embed') && !can(model, 'multiVector');
  return can(model, ROLE_NEEDS[role]);
}

/** Ollama answers to `qwen3` for `qwen3:latest`. */
export function sameModel(server: ServerInventory, listed: string, wanted: string): boolean {
  if (listed === wanted) return true;
  return server.kind === 'ollama' && (listed === `${wanted}:latest` || `${listed}:latest` === wanted);
}

/** "Ollama at 127.0.0.1:11434", or just the address when that is all the label says. */
export function serverName(server: Pick<ServerInventory, 'label' | 'endpoint'>): string {
  const address = server.endpoint.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  return server.label === address || server.label === '' ? address : `${server.label} at ${address}`;
}

export function fromServer(
  role: ModelRole,
  server: ServerInventory,
  model: ServedModel,
  reason: string,
): ResolvedRole {
  return {
    role,
    provider: server.kind,
    endpoint: server.endpoint,
    model: model.name,
    reason,
    via: 'server',
    supportsImages: can(model, 'vision'),
    ...(server.apiKey ? { apiKey: server.apiKey } : {}),
  };
}

export function fromLocal(role: ModelRole, path: string, reason: string): ResolvedRole {
  return {
    role,
    provider: 'llama',
    endpoint: null,
    model: path,
    reason,
    via: 'local',
    supportsImages: false,
  };
}

/** An ONNX page embedder run in-process: it reads the page images themselves. */
export function fromOnnx(path: string, reason: string): ResolvedRole {
  const role = 'pageEmbed';
  return { role, provider: 'onnx', endpoint: null, model: path, reason, via: 'local', supportsImages: true };
}

/** An ONNX sentence embedder run in-process for the embed role: a folder with model.onnx and tokenizer.json. */
export function fromOnnxText(path: string, reason: string): ResolvedRole {
  return {
    role: 'embed',
    provider: 'onnx',
    endpoint: null,
    model: path,
    reason,
    via: 'local',
    supportsImages: false,
  };
}

/** A vision model run in-process: its GGUF and the projector that turns images into its tokens. */
export function fromVision(path: string, projectorPath: string, reason: string): ResolvedRole {
  return {
    role: 'see',
    provider: 'llama',
    endpoint: null,
    model: path,
    reason,
    via: 'local',
    supportsImages: true,
    projectorPath,
  };
}

export function nothing(role: ModelRole, reason: string): ResolvedRole {
  return { role, provider: null, endpoint: null, model: null, reason, via: 'none', supportsImages: false };
}

export function isLocalPath(model: string): boolean {
  return /\.(gguf|onnx)$/i.test(model) || model.startsWith('/') || /^[a-z]:\\/i.test(model);
}
