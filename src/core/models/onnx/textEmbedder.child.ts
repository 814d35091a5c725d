/*
 * The text embedder host: a child process that owns ONNX Runtime and the tokenizer. A model that
 * crashes the runtime, or a batch that exhausts memory, ends only this process.
 */
import { serveHost } from '../host/serveHost';
import { TextEmbedderEngine } from './textEmbedderEngine';
import type { TextEmbedderRequest } from './textEmbedderProtocol';

const engine = new TextEmbedderEngine();

serveHost<TextEmbedderRequest>({
  async perform(request, signal) {
    switch (request.type) {
      case 'load':
        return engine.load(request.options);
      case 'embed':
        return engine.embed(request.texts, request.kind, signal);
      case 'dispose':
        await engine.dispose();
        return null;
    }
  },
});
