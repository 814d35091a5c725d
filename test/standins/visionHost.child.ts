/*
 * A stand-in for the vision model's host (src/core/models/vision/vision.child.ts): the same messages
 * over the same channel (serveHost), with no model behind them. It describes the images it was sent,
 * so a test sees what crossed the wire, streams its answer word by word, and for a message that says
 * "wait" runs until it is cancelled.
 */
import sharp from 'sharp';
import { QuireError } from '../../src/shared/errors';
import { serveHost } from '../../src/core/models/host/serveHost';
import type { VisionRequest } from '../../src/core/models/vision/protocol';

serveHost<VisionRequest>({
  async perform(request, signal, send) {
    switch (request.type) {
      case 'load':
        return {
          modelPath: request.options.modelPath,
          projectorPath: request.options.projectorPath,
          contextSize: request.options.contextSize ?? 4096,
          vision: true,
        };
      case 'chat': {
        const images = request.request.messages.flatMap((message) => message.images ?? []);
        if (request.request.messages.some((message) => message.content.includes('wait'))) {
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
          throw new QuireError('cancelled', 'Cancelled.');
        }
        const seen = await Promise.all(
          images.map(async (image) => {
            const meta = await sharp(image).metadata();
            return `${meta.format} ${meta.width}x${meta.height}`;
          }),
        );
        const words = [`saw ${images.length} image(s):`, ...seen.map((s) => `${s};`)];
        if (request.request.stream)
          for (const word of words) send({ type: 'token', id: request.id, text: `${word} ` });
        return { text: words.join(' '), outputTokens: words.length };
      }
      case 'dispose':
        return null;
    }
  },
});
