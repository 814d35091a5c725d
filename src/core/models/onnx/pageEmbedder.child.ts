/*
 * The page embedder host: a child process that owns ONNX Runtime and the model's preprocessing. A
 * model that crashes the runtime, or a page that exhausts memory, ends only this process.
 */
import { serveHost } from '../host/serveHost';
import { ColModernVBertEngine } from './colModernVBertEngine';
import type { PageEmbedderRequest } from './protocol';

const engine = new ColModernVBertEngine();

serveHost<PageEmbedderRequest>({
  async perform(request, signal) {
    switch (request.type) {
      case 'load':
        return engine.load(request.options);
      case 'embedImage':
        return engine.embedImage(request.image, signal);
      case 'embedQueries':
        return engine.embedQueries(request.queries, signal);
      case 'dispose':
        await engine.dispose();
        return null;
    }
  },
});
