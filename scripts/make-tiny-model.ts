/**
 * `npm run make-tiny-model -- <out.gguf> [--seed N] [--projector mmproj.gguf]`: writes the tiny
 * random-weight llama GGUF the tests use, for trying the in-process provider by hand; with
 * `--projector`, also a tiny vision projector for it (`--vision-model` / `--vision-projector`).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeTinyGguf } from '../test/helpers/tinyModel';
import { writeTinyProjector } from '../test/helpers/tinyProjector';

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  options: { seed: { type: 'string', default: '1' }, projector: { type: 'string' } },
  allowPositionals: true,
});
const seed = Number(values.seed);
const [out] = positionals;
if (!out || !Number.isInteger(seed)) {
  console.error('Usage: npm run make-tiny-model -- <out.gguf> [--seed N] [--projector mmproj.gguf]');
  process.exit(2);
}
const bytes = await writeTinyGguf(resolve(out), { seed });
console.log(`wrote ${resolve(out)} (${bytes} bytes, seed ${seed})`);
if (values.projector) {
  const projectorBytes = await writeTinyProjector(resolve(values.projector), seed);
  console.log(`wrote ${resolve(values.projector)} (${projectorBytes} bytes, a vision projector for it)`);
}
