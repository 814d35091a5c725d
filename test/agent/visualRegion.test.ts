import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cropToRegion, parseRegion } from '../../src/core/agent/tools/pageRegion';
import { runScripted } from './harness';
import { scriptedRoles } from './scriptedModel';

/** A Letter page (612 x 792 pt) drawn at 2x, white, with a red box at x 100-300 pt, y 200-300 pt. */
async function letterPageWithRedBox(): Promise<Uint8Array> {
  const red = await sharp({
    create: { width: 400, height: 200, channels: 3, background: { r: 220, g: 0, b: 0 } },
  })
    .png()
    .toBuffer();
  const page = sharp({ create: { width: 1224, height: 1584, channels: 3, background: '#ffffff' } });
  return new Uint8Array(
    await page
      .composite([{ input: red, left: 200, top: 400 }])
      .webp()
      .toBuffer(),
  );
}

async function colourOf(image: Uint8Array): Promise<{ r: number; g: number; width: number; height: number }> {
  const { channels, info } = await sharp(image)
    .stats()
    .then(async (stats) => ({
      channels: stats.channels,
      info: await sharp(image).metadata(),
    }));
  return { r: channels[0]!.mean, g: channels[1]!.mean, width: info.width!, height: info.height! };
}

describe('page regions', () => {
  it('reads "x,y,width,height" in points, and nothing for the whole page', () => {
    expect(parseRegion('100, 200, 200, 100')).toEqual({ x: 100, y: 200, width: 200, height: 100 });
    expect(parseRegion('')).toBeNull();
    expect(parseRegion('1,2,3')).toBe('invalid');
    expect(parseRegion('1,2,0,4')).toBe('invalid');
    expect(parseRegion('top half')).toBe('invalid');
  });

  it('cuts the region out of an image drawn at another scale, enlarged for reading', async () => {
    const page = await letterPageWithRedBox();
    const crop = await cropToRegion(
      page,
      { width: 612, height: 792 },
      { x: 100, y: 200, width: 200, height: 100 },
    );
    const seen = await colourOf(crop!);
    // 400 x 200 px at 2x, enlarged to a 768 px long edge.
    expect([seen.width, seen.height]).toEqual([768, 384]);
    expect(seen.r).toBeGreaterThan(200);
    expect(seen.g).toBeLessThan(20);
    // Beside the box the page is white.
    const beside = await colourOf(
      (await cropToRegion(page, { width: 612, height: 792 }, { x: 350, y: 200, width: 100, height: 100 }))!,
    );
    expect(beside.g).toBeGreaterThan(240);
  });

  it('keeps to the page: a region partly outside is clipped, one wholly outside is refused', async () => {
    const page = await letterPageWithRedBox();
    const clipped = await cropToRegion(
      page,
      { width: 612, height: 792 },
      { x: 500, y: 700, width: 400, height: 400 },
    );
    const seen = await colourOf(clipped!);
    expect(seen.width / seen.height).toBeCloseTo(112 / 92, 1);
    expect(
      await cropToRegion(page, { width: 612, height: 792 }, { x: 700, y: 10, width: 50, height: 50 }),
    ).toBeNull();
  });
});

describe('visual_interpretation with a region', () => {
  it('sends the vision model the cropped page, and says which region it read', async () => {
    const page = await letterPageWithRedBox();
    const models = scriptedRoles({
      decide: [
        { tool: 'visual_search', inputs: { query: 'emergency stop motors', k: '3' } },
        {
          tool: 'visual_interpretation',
          inputs: { question: 'What colour is the box?', region: '100,200,200,100' },
        },
        { tool: 'open_citation', inputs: { source: '1', scope: 'page' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'All motors halt within 200 ms of the emergency stop being pressed [1].' }],
      see: [{ answer: 'The box on page [1] is red.' }],
    });
    const run = await runScripted({
      question: 'How fast do the motors stop?',
      models,
      ports: {
        pageSearch: true,
        pageImage: async () => ({ image: page, pageWidth: 612, pageHeight: 792 }),
      },
    });
    const request = models.see!.requests[0]!;
    const images = request.messages.at(-1)!.images!;
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      const seen = await colourOf(image);
      expect([seen.width, seen.height]).toEqual([768, 384]);
      expect(seen.r).toBeGreaterThan(200);
    }
    expect(request.messages.at(-1)!.content).toContain('the region x 100, y 200, 200 by 100 pt');
    const result = run.of('tool_result').find((r) => r.tool === 'visual_interpretation');
    expect(result?.summary).toContain('one region of each');
  });

  it('refuses a malformed region before looking', async () => {
    const models = scriptedRoles({
      decide: [
        { tool: 'visual_search', inputs: { query: 'emergency stop motors', k: '3' } },
        {
          tool: 'visual_interpretation',
          inputs: { question: 'What colour?', region: 'the top left corner' },
        },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'The documents do not show it.' }],
      see: [{ answer: 'unused' }],
    });
    const run = await runScripted({
      question: 'What colour is the box?',
      models,
      ports: { pageSearch: true },
    });
    expect(models.see!.requests).toHaveLength(0);
    expect(JSON.stringify(run.of('error'))).toContain('region must be');
  });
});
