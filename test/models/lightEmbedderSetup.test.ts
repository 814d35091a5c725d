import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueModel } from '../../src/core/models/catalogue/catalogue';
import { ModelService } from '../../src/core/models/modelService';
import { ModelSettingsStore } from '../../src/core/models/modelSettingsStore';
import { LocalTextEmbedders } from '../../src/core/models/onnx/localTextEmbedders';
import { SetupService } from '../../src/core/models/setup/setupService';
import type { MemoryBudget, MemoryEntry } from '../../src/shared/domain/models';
import { tempDir } from '../helpers/shared';
import { startModelHostStandIn, type ModelHostStandIn } from '../standins/modelHostStandIn';
import { inCi, REAL_WEIGHTS_MISSING, realEmbedders } from '../helpers/realModels';

/*
 * The setup on a small machine: it proposes bge-small-en-v1.5, downloads the pinned files (the real
 * ones, served by a stand-in for the hub, so the pinned sizes and hashes must match them), saves
 * the choice, and the embed role then runs it with ONNX Runtime.
 */

const GiB = 1024 ** 3;
const bge = realEmbedders(['bge-small-en-v1.5-int8']).get('bge-small-en-v1.5-int8');
const skip = !bge && !inCi;
if (skip) console.log(REAL_WEIGHTS_MISSING);

const MEMORY: MemoryBudget = {
  totalBytes: 8 * GiB,
  availableBytes: 6 * GiB,
  unifiedMemory: false,
  appHeadroomBytes: 2 * GiB,
  entries: [],
  freeForModelsBytes: 4 * GiB,
  notes: [],
};

let host: ModelHostStandIn | undefined;
let dir: Awaited<ReturnType<typeof tempDir>>;
const entries: MemoryEntry[] = [];
const runtime = new LocalTextEmbedders({ onMemoryEntry: (entry) => entries.push(entry), threads: 1 });

beforeAll(async () => {
  dir = await tempDir('quire-light-embedder-');
  if (!bge) return;
  const model = catalogueModel('bge-small-en-v1.5')!;
  const [weights, tokenizer] = model.files;
  host = await startModelHostStandIn([
    {
      path: `${weights!.repository}/resolve/main/${weights!.fileName}`,
      bytes: await readFile(join(bge.path, 'model.onnx')),
    },
    {
      path: `${tokenizer!.repository}/resolve/main/${tokenizer!.fileName}`,
      bytes: await readFile(join(bge.path, 'tokenizer.json')),
      storage: 'git',
    },
  ]);
});
afterAll(async () => {
  await runtime.dispose();
  await host?.close();
  await dir.cleanup();
});

describe.skipIf(skip)('the light embedder through the setup', () => {
  it('downloads the pinned files on an 8 GB machine and embeds with them', async () => {
    expect(bge, REAL_WEIGHTS_MISSING).toBeDefined();
    const settings = new ModelSettingsStore(dir.path, () => models.refresh());
    const models: ModelService = new ModelService({
      dataDir: dir.path,
      memory: () => MEMORY,
      candidates: () => [],
      settings: () => settings.current.roles,
      hubEndpoint: host!.baseUrl,
      createTextEmbedder: (path) => runtime.load(path),
    });
    const setup = new SetupService({
      models,
      settings,
      machine: async () => ({
        totalBytes: 8 * GiB,
        unifiedMemory: false,
        appleSilicon: false,
        freeDiskBytes: 500e9,
        modelsDir: models.modelsDir,
      }),
      hubEndpoint: host!.baseUrl,
    });
    try {
      await settings.load();
      const proposal = await setup.propose();
      const embed = proposal.roles.find((role) => role.role === 'embed')!;
      expect(embed).toMatchObject({ modelId: 'bge-small-en-v1.5', source: 'download' });

      const result = await setup.start(proposal, ['embed']).done;
      expect(result.failed).toEqual([]);
      const path = join(models.modelsDir, 'bge-small-en-v1.5', 'model_quantized.onnx');
      expect(settings.current.roles.embed).toEqual({ model: path });
      const role = models.status().roles.find((candidate) => candidate.role === 'embed');
      expect(role).toMatchObject({ provider: 'onnx', model: path });

      const embedder = await models.textEmbedder();
      expect(embedder?.id).toMatch(/^onnx:bge:bge-small-en-v1\.5:[0-9a-f]{12}$/);
      const [query] = await embedder!.embed(['kitten dozing by the glass pane'], { kind: 'query' });
      expect(query).toHaveLength(384);
      expect(entries.at(-1)).toMatchObject({ roles: ['embed'], loaded: true, weightsBytes: bge!.bytes });
    } finally {
      await models.dispose();
    }
  }, 300_000);
});
