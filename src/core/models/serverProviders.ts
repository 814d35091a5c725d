/*
 * The provider objects for roles a server serves: one instance per face (chat, text, page) of each
 * resolved model, created on first use, dropped when resolution moves the role elsewhere, and retried
 * after a failed creation.
 */
import { QuireError } from '../../shared/errors';
import type { FetchLike } from './http/transport';
import { OllamaClient } from './ollama/ollamaClient';
import { OllamaChatModel, OllamaTextEmbedder } from './ollama/ollamaModels';
import { OpenAIClient } from './openai/openaiClient';
import { OpenAIChatModel, probeOpenAIEmbedder } from './openai/openaiModels';
import type { ResolvedRole } from './roles';
import { SegmentPageEmbedder } from './segmentPageEmbedder';
import type { ChatModel, PageEmbedder, TextEmbedder } from './types';

export interface ServerProvidersOptions {
  /** Longest silence allowed per model call. */
  callTimeoutMs?: number;
  fetch?: FetchLike;
}

type Face = 'chat' | 'text' | 'page';

export function roleKey(role: ResolvedRole): string {
  return [role.via, role.provider, role.endpoint, role.model].join('|');
}

export class ServerProviders {
  private readonly instances = new Map<string, Promise<unknown>>();

  constructor(private readonly options: ServerProvidersOptions = {}) {}

  /** Drops the instances of models no role resolves to any more. */
  keepOnly(roles: readonly ResolvedRole[]): void {
    const live = new Set(roles.map(roleKey));
    for (const key of this.instances.keys())
      if (!live.has(key.slice(key.indexOf('#') + 1))) this.instances.delete(key);
  }

  chat(resolved: ResolvedRole): Promise<ChatModel> {
    return this.instance('chat', resolved, async () => {
      if (resolved.provider === 'ollama') {
        return new OllamaChatModel(this.ollama(resolved.endpoint!), resolved.model!, resolved.supportsImages);
      }
      return new OpenAIChatModel(this.openai(resolved), resolved.model!, resolved.supportsImages);
    });
  }

  text(resolved: ResolvedRole): Promise<TextEmbedder> {
    const key: ResolvedRole = { ...resolved, role: 'embed', via: 'server' };
    return this.instance('text', key, async () => {
      if (resolved.provider === 'ollama')
        return OllamaTextEmbedder.create(this.ollama(resolved.endpoint!), resolved.model!);
      const probed = await probeOpenAIEmbedder(this.openai(resolved), resolved.model!);
      if (probed.kind !== 'text') {
        throw new QuireError(
          'model_failed',
          `\`${resolved.model}\` returns several vectors per text: choose it for page search instead.`,
        );
      }
      return probed.embedder;
    });
  }

  /** Page vectors from a text embedder, one per line of text. */
  segments(resolved: ResolvedRole, text: TextEmbedder): Promise<PageEmbedder> {
    return this.instance('page', resolved, async () => new SegmentPageEmbedder(text));
  }

  /** A multi-vector (ColQwen-style) server model; a dense one under such a name still works per segment. */
  page(resolved: ResolvedRole): Promise<PageEmbedder> {
    return this.instance('page', resolved, async () => {
      const probed = await probeOpenAIEmbedder(this.openai(resolved), resolved.model!);
      if (probed.kind === 'multiVector') return probed.embedder;
      return new SegmentPageEmbedder(probed.embedder);
    });
  }

  ollama(endpoint: string): OllamaClient {
    return new OllamaClient({
      baseUrl: endpoint,
      idleTimeoutMs: this.options.callTimeoutMs,
      fetch: this.options.fetch,
    });
  }

  private openai(role: ResolvedRole): OpenAIClient {
    return new OpenAIClient({
      baseUrl: role.endpoint!,
      apiKey: role.apiKey,
      idleTimeoutMs: this.options.callTimeoutMs,
      fetch: this.options.fetch,
    });
  }

  private instance<T>(face: Face, role: ResolvedRole, create: () => Promise<T>): Promise<T> {
    const key = `${face}#${roleKey(role)}`;
    let existing = this.instances.get(key) as Promise<T> | undefined;
    if (!existing) {
      existing = create();
      this.instances.set(key, existing);
      // A failed creation (model missing, server gone) is retried on the next call.
      existing.catch(() => {
        if (this.instances.get(key) === existing) this.instances.delete(key);
      });
    }
    return existing;
  }
}
