/*
 * The vision model's host: a child process that owns llama.cpp with image input. A malformed model or
 * projector that aborts llama.cpp ends only this process; the parent reports it.
 */
import { serveHost } from '../host/serveHost';
import { VisionEngine } from './visionEngine';
import type { VisionRequest } from './protocol';

const engine = new VisionEngine();

serveHost<VisionRequest>({
  async perform(request, signal, send) {
    switch (request.type) {
      case 'load':
        return engine.load(request.options);
      case 'chat': {
        const { id } = request;
        return engine.chat(request.request, {
          signal,
          onToken: (text) => send({ type: 'token', id, text }),
        });
      }
      case 'dispose':
        await engine.dispose();
        return null;
    }
  },
});
