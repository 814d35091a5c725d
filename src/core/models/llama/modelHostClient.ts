/*
 * The parent side of the llama model host: the common host client (../host/hostClient.ts) with the
 * llama requests, chat and embed.
 */
import { HostClient, type HostCallOptions } from '../host/hostClient';
import type {
  HostChatRequest,
  HostChatResult,
  HostModelInfo,
  HostRequest,
  LlamaLoadOptions,
} from './protocol';

export type { HostCallOptions } from '../host/hostClient';

export interface ModelHostClientOptions {
  load: LlamaLoadOptions;
  /** Limit for starting the child and loading the model. Defaults to 120 s: large models load slowly from disk. */
  loadTimeoutMs?: number;
  /** How long a cancelled or timed-out call may take to stop before the child is killed. Defaults to 5 s. */
  stopGraceMs?: number;
  /** How long one cancelled call may run on while the host serves others. Defaults to 30 s. */
  cancelGraceMs?: number;
}

/**
 * llama.cpp looks at a cancelled call only between batches of up to 512 prompt tokens, and one batch of
 * a 1.5B model takes over 10 s on 2 busy cores (47 tokens/s): with 5 s of grace the host was killed,
 * and the run's other call in flight failed with it.
 */
const CANCEL_GRACE_MS = 30_000;

type LlamaRequest = Exclude<HostRequest, { type: 'cancel' }>;

export class ModelHostClient extends HostClient<LlamaRequest, HostModelInfo> {
  constructor(private readonly options: ModelHostClientOptions) {
    super({
      entry: { callerUrl: import.meta.url, path: './modelHost.child.ts' },
      subject: options.load.modelPath,
      load: { type: 'load', options: options.load },
      ...(options.loadTimeoutMs === undefined ? {} : { loadTimeoutMs: options.loadTimeoutMs }),
      ...(options.stopGraceMs === undefined ? {} : { stopGraceMs: options.stopGraceMs }),
      cancelGraceMs: options.cancelGraceMs ?? CANCEL_GRACE_MS,
      signalHint: (signal) =>
        signal === 'SIGABRT'
          ? 'llama.cpp aborted, which usually means the model file is malformed or unsupported.'
          : null,
    });
  }

  get modelPath(): string {
    return this.options.load.modelPath;
  }

  async chat(request: HostChatRequest, options: HostCallOptions = {}): Promise<HostChatResult> {
    return (await this.work({ type: 'chat', request }, options)) as HostChatResult;
  }

  async embed(texts: string[], options: HostCallOptions = {}): Promise<Float32Array[]> {
    return (await this.work({ type: 'embed', texts }, options)) as Float32Array[];
  }

  async rank(query: string, documents: string[], options: HostCallOptions = {}): Promise<number[]> {
    return (await this.work({ type: 'rank', query, documents }, options)) as number[];
  }
}
