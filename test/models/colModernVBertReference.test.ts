import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { ColModernVBertEngine } from '../../src/core/models/onnx/colModernVBertEngine';

/*
 * The real ColModernVBERT export against the reference values fastembed's tests publish for it (the
 * first 7 dimensions of the first 7 vectors, abridged and rounded there; tolerance 2e-3 as there).
 * Runs only where the weights are: QUIRE_COLMODERNVBERT_ONNX names the export's model.onnx (its
 * tokenizer.json and configs beside it) and QUIRE_FASTEMBED_TEST_IMAGE fastembed's tests/misc/image.jpeg.
 */

const modelPath = process.env.QUIRE_COLMODERNVBERT_ONNX ?? '';
const imagePath = process.env.QUIRE_FASTEMBED_TEST_IMAGE ?? '';
const missing = [
  !existsSync(modelPath) && 'QUIRE_COLMODERNVBERT_ONNX (the Qdrant/colmodernvbert model.onnx)',
  !existsSync(imagePath) && "QUIRE_FASTEMBED_TEST_IMAGE (fastembed's tests/misc/image.jpeg)",
].filter(Boolean);
if (missing.length > 0) {
  console.log(`ColModernVBERT reference check skipped: no real weights here; set ${missing.join(' and ')}.`);
}

const IMAGE_REFERENCE = [
  [0.11614, -0.15793, -0.11194, 0.0688, 0.08001, 0.10575, -0.07871],
  [0.10094, -0.13301, -0.12069, 0.10932, 0.04645, 0.09884, 0.04048],
  [0.13106, -0.18613, -0.13469, 0.10566, 0.03659, 0.07712, -0.03916],
  [0.09754, -0.09596, -0.04839, 0.14991, 0.05692, 0.10569, -0.08349],
  [0.02576, -0.15651, -0.09977, 0.09707, 0.13412, 0.09994, -0.09931],
  [-0.06741, -0.1787, -0.19677, -0.07618, 0.13102, -0.02131, -0.02437],
  [-0.02776, -0.10187, -0.13793, 0.03835, 0.04766, 0.04701, -0.15635],
];

/** "hello world", embedded in a batch with "flag embedding". */
const QUERY_REFERENCE = [
  [0.05, 0.06557, 0.04026, 0.14981, 0.1842, 0.0263, -0.18706],
  [-0.05664, -0.14028, 0.00649, -0.02849, 0.09034, -0.01494, 0.10693],
  [-0.10147, -0.00716, 0.09084, -0.08236, -0.01849, -0.00972, -0.00461],
  [-0.1233, -0.10814, -0.02337, -0.00329, 0.05984, 0.09934, 0.09846],
  [-0.07053, -0.13119, -0.06487, 0.01508, 0.07459, 0.07655, 0.14821],
  [0.00526, -0.13842, -0.05837, -0.02721, 0.13009, 0.05076, 0.17962],
  [0.00924, -0.14383, -0.03057, -0.03691, 0.11718, 0.037, 0.13344],
];

function expectClose(values: Float32Array, dimensions: number, reference: number[][]): void {
  reference.forEach((row, r) =>
    row.forEach((expected, d) => {
      expect(Math.abs(values[r * dimensions + d]! - expected), `vector ${r}, dimension ${d}`).toBeLessThan(
        2e-3,
      );
    }),
  );
}

describe.skipIf(missing.length > 0)('ColModernVBERT against the published reference values', () => {
  const engine = new ColModernVBertEngine();
  afterAll(() => engine.dispose());

  it('embeds the reference image and query as fastembed does', async () => {
    const info = await engine.load({ modelPath, accelerator: false });
    expect(info.dimensions).toBe(128);
    const image = await engine.embedImage(new Uint8Array(await readFile(imagePath)));
    expectClose(image.values, info.dimensions, IMAGE_REFERENCE);
    const [hello] = await engine.embedQueries(['hello world', 'flag embedding']);
    expectClose(hello!.values, info.dimensions, QUERY_REFERENCE);
  }, 600_000);
});
