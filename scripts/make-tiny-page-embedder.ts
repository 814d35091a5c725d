/**
 * `npm run make-tiny-page-embedder -- <out.onnx> [--seed N]`: writes the tiny random-weight ONNX page
 * embedder the tests use (ColModernVBERT's inputs and [batch, tokens, 128] output, its tokenizer and
 * processor settings inside), for trying the in-process page embedder by hand.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeTinyPageEmbedder } from '../test/helpers/tinyPageEmbedder';

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  options: { seed: { type: 'string', default: '1' } },
  allowPositionals: true,
});
const seed = Number(values.seed);
const [out] = positionals;
if (!out || !Number.isInteger(seed)) {
  console.error('Usage: npm run make-tiny-page-embedder -- <out.onnx> [--seed N]');
  process.exit(2);
}
const bytes = await writeTinyPageEmbedder(resolve(out), { seed });
console.log(`wrote ${resolve(out)} (${bytes} bytes, seed ${seed})`);
