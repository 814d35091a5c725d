/*
 * The model host: a child process that owns node-llama-cpp. llama.cpp aborts the whole process on some
 * malformed models (GGML_ASSERT), so only this process dies and the parent reports it.
 */
import { QuireError } from '../../../shared/errors';
import { parentChannel } from '../../common/parentChannel';
import { LlamaEngine } from './llamaEngine';
import type { HostErrorInfo, HostReply, HostRequest } from './protocol';

const engine = new LlamaEngine();
const running = new Map<number, AbortController>();
const parent = parentChannel();

function send(reply: HostReply): void {
  parent.send(reply);
}

function toHostError(error: unknown): HostErrorInfo {
  if (error instanceof QuireError) return { code: error.code, message: error.message };
  return { code: 'model_failed', message: error instanceof Error ? error.message : String(error) };
}

async function perform(
  request: Exclude<HostRequest, { type: 'cancel' }>,
  signal: AbortSignal,
): Promise<unknown> {
  switch (request.type) {
    case 'load':
      return engine.load(request.options);
    case 'chat': {
      const { id } = request;
      const onToken = request.request.stream
        ? (text: string) => send({ type: 'token', id, text })
        : undefined;
      return engine.chat(request.request, { signal, ...(onToken ? { onToken } : {}) });
    }
    case 'embed':
      return engine.embed(request.texts, { signal });
    case 'rank':
      return engine.rank(request.query, request.documents, { signal });
    case 'unload':
      await engine.unload();
      return null;
    case 'dispose':
      await engine.dispose();
      return null;
  }
}

async function handle(request: HostRequest): Promise<void> {
  if (request.type === 'cancel') {
    running.get(request.targetId)?.abort();
    return;
  }
  const controller = new AbortController();
  running.set(request.id, controller);
  try {
    const value = await perform(request, controller.signal);
    send({ type: 'result', id: request.id, value });
  } catch (error) {
    send({ type: 'error', id: request.id, error: toHostError(error) });
  } finally {
    running.delete(request.id);
  }
  if (request.type === 'dispose') parent.close();
}

parent.onMessage((message) => void handle(message as HostRequest));
// The parent went away: nothing is left to answer to.
parent.onDisconnect(() => process.exit(0));
send({ type: 'ready', pid: process.pid });
