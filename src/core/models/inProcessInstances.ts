/*
 * The models Quire runs itself, one instance per file: a GGUF (chat and text embeddings), an ONNX
 * sentence embedder and an ONNX page embedder can be loaded side by side. A load that fails is forgotten, so the next call tries
 * again, and reported, so role resolution can set the file aside with its reason.
 */
import { QuireError } from '../../shared/errors';
import type { ChatModel, PageEmbedder, TextEmbedder } from './types';

export interface InProcessModel {
  chat: ChatModel;
  embedder: TextEmbedder;
  dispose?(): Promise<void>;
}

export interface InProcessInstancesDeps {
  /** Loads a GGUF in-process (in its own process); provided by the composition root. */
  createLocalModel?: (path: string) => Promise<InProcessModel>;
  /** Loads an ONNX sentence embedder (a folder) in its own process; provided by the composition root. */
  createTextEmbedder?: (path: string) => Promise<TextEmbedder>;
  /** Loads an ONNX page embedder in its own process; provided by the composition root. */
  createPageEmbedder?: (path: string) => Promise<PageEmbedder>;
  /** Loads a vision model and its projector in their own process; provided by the composition root. */
  createVisionModel?: (modelPath: string, projectorPath: string) => Promise<ChatModel>;
  onLoadFailure: (kind: 'gguf' | 'onnx' | 'vision', path: string, error: unknown) => void;
}

export class InProcessInstances {
  private readonly models = new Map<string, Promise<InProcessModel>>();
  private readonly textEmbedders = new Map<string, Promise<TextEmbedder>>();
  private readonly pageEmbedders = new Map<string, Promise<PageEmbedder>>();
  private readonly visionModels = new Map<string, Promise<ChatModel>>();

  constructor(private readonly deps: InProcessInstancesDeps) {}

  model(path: string): Promise<InProcessModel> {
    return this.once(this.models, 'gguf', path, this.deps.createLocalModel, 'In-process models');
  }

  textEmbedder(path: string): Promise<TextEmbedder> {
    return this.once(
      this.textEmbedders,
      'onnx',
      path,
      this.deps.createTextEmbedder,
      'In-process ONNX text embedders',
    );
  }

  pageEmbedder(path: string): Promise<PageEmbedder> {
    return this.once(
      this.pageEmbedders,
      'onnx',
      path,
      this.deps.createPageEmbedder,
      'In-process page embedders',
    );
  }

  /** A vision model with its projector; keyed by both, so another projector loads another instance. */
  visionModel(modelPath: string, projectorPath: string): Promise<ChatModel> {
    const create = this.deps.createVisionModel;
    return this.once(
      this.visionModels,
      'vision',
      `${modelPath}\n${projectorPath}`,
      create ? (key) => create(modelPath, key.slice(modelPath.length + 1)) : undefined,
      'In-process vision models',
    );
  }

  /**
   * Ends the in-process models; ONNX embedders and vision models are ended by whoever created them
   * (LocalTextEmbedders, LocalPageEmbedders, LocalVisionModels).
   */
  async dispose(): Promise<void> {
    const loaded = await Promise.allSettled([...this.models.values()]);
    this.models.clear();
    this.textEmbedders.clear();
    this.pageEmbedders.clear();
    this.visionModels.clear();
    await Promise.allSettled(
      loaded.flatMap((result) => (result.status === 'fulfilled' ? [result.value.dispose?.()] : [])),
    );
  }

  private once<T>(
    instances: Map<string, Promise<T>>,
    kind: 'gguf' | 'onnx' | 'vision',
    path: string,
    create: ((path: string) => Promise<T>) | undefined,
    what: string,
  ): Promise<T> {
    const existing = instances.get(path);
    if (existing) return existing;
    if (!create)
      return Promise.reject(new QuireError('model_unavailable', `${what} are not available in this build.`));
    const loading = create(path);
    instances.set(path, loading);
    loading.catch((error: unknown) => {
      if (instances.get(path) === loading) instances.delete(path);
      this.deps.onLoadFailure(kind, path, error);
    });
    return loading;
  }
}
