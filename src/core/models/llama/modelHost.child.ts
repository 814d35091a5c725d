/*
 * The model host: a child process that owns node-llama-cpp. llama.cpp aborts the whole process on some
 * malformed models (GGML_ASSERT), so only this process dies and the parent reports it.
 */
import { serveHost } from '../host/serveHost';
import { LlamaEngine } from './llamaEngine';
import type { HostRequest } from './protocol';

const engine = new LlamaEngine();

serveHost<Exclude<HostRequest, { type: 'cancel' }>>({
  async perform(request, signal, send) {
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
  },
});
