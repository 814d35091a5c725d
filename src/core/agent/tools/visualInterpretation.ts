import { basename } from 'node:path';
import { z } from 'zod';
import type { BoundingBox } from '../../../shared/domain/search';
import { cropToRegion, parseRegion } from './pageRegion';
import { objectSchema, textField } from './schema';
import type { Tool } from './types';

interface Inputs {
  question: string;
  /** Part of each page to look at, in page points; null for the whole page. */
  region: BoundingBox | null;
}

export const visualInterpretation: Tool<Inputs> = {
  name: 'visual_interpretation',
  description:
    'Have a vision model look at the page images visual_search just found and answer a question about them ' +
    '(values in a chart, cells of a table, a figure). Give a region to look closer at one part of the page.',
  inputSchema: z.object({
    question: z.string().trim().min(1).max(300),
    region: z
      .string()
      .max(60)
      .default('')
      .transform((text, context) => {
        const region = parseRegion(text);
        if (region !== 'invalid') return region;
        context.addIssue({
          code: 'custom',
          message: 'region must be "x,y,width,height" in page points, or empty for the whole page',
        });
        return z.NEVER;
      }),
  }),
  modelInputSchema: objectSchema({
    question: textField(300, 'what to read from the pages'),
    region: textField(
      60,
      'part of the page to look at, "x,y,width,height" in points from the top-left (a Letter page is 612 by 792), or "" for the whole page',
    ),
  }),
  ends: false,
  isAvailable: (state) => state.capabilities.see && state.pendingPages.length > 0,
  defaultInputs: (state) => ({ question: state.question.slice(0, 300), region: null }),
  async *run(inputs, { state, ports, limits, signal }) {
    const model = await ports.models.chatModel('see');
    if (!model) {
      yield {
        type: 'error',
        message: 'No vision model is configured.',
        suggestion: 'Use open_citation to read the page text.',
      };
      return;
    }
    const pages = state.pendingPages.slice(0, limits.maxImagesPerLook);
    state.pendingPages = state.pendingPages.slice(pages.length);
    const images: Uint8Array[] = [];
    const read: typeof pages = [];
    for (const page of pages) {
      signal.throwIfAborted();
      const stored = await ports.pageImage(page.documentId, page.page);
      if (!stored) continue;
      const { region } = inputs;
      const image = region
        ? await cropToRegion(stored.image, { width: stored.pageWidth, height: stored.pageHeight }, region)
        : stored.image;
      if (image) {
        images.push(image);
        read.push(page);
      }
    }
    if (read.length === 0) {
      yield {
        type: 'error',
        message: inputs.region
          ? 'The region lies outside the pages, or their images are not available.'
          : 'The page images are not available.',
        suggestion: inputs.region ? 'Look at the whole page (region "").' : 'Use open_citation instead.',
      };
      return;
    }
    const where = inputs.region
      ? ` (the region x ${inputs.region.x}, y ${inputs.region.y}, ${inputs.region.width} by ${inputs.region.height} pt)`
      : '';
    const labels = read
      .map((p, i) => `image ${i + 1} = [${p.n}] ${basename(p.path)} p.${p.page}${where}`)
      .join('; ');
    const response = await model.chat({
      messages: [
        {
          role: 'system',
          content:
            'You read document page images. Report only what is visible, citing the page as [n]. ' +
            'If the images do not show the answer, say so.',
        },
        { role: 'user', content: `${labels}\n\nQuestion: ${inputs.question}`, images },
      ],
      maxTokens: limits.answerMaxTokens,
      temperature: 0,
      signal,
    });
    yield {
      type: 'result',
      name: inputs.question,
      text: response.text.trim() || '(the vision model returned nothing)',
      items: read.length,
      summary: `read ${read.length} page image(s)${inputs.region ? ', one region of each' : ''}`,
    };
  },
};
