/*
 * First-run model setup: propose one model set for this machine, check the hosts can be reached,
 * fetch what is missing (files from the model host, or `ollama pull` when Ollama runs), and write
 * the choice of each role whose download finished to settings, even when another role's failed.
 * The CLI and the app both drive it.
 */
import { join } from 'node:path';
import type {
  DownloadProgress,
  ModelRole,
  RoleChoice,
  RoleProposal,
  SetupProposal,
  SetupRole,
} from '../../../shared/domain/models';
import { QuireError, toErrorInfo } from '../../../shared/errors';
import { offlineAdvice } from '../catalogue/advice';
import { localFileName, type CatalogueModel } from '../catalogue/catalogue';
import { ocrModelsHere } from '../catalogue/ocrModelFolder';
import { ocrModelProposal } from '../catalogue/ocrProposal';
import { proposeModelSet, type MachineFacts } from '../catalogue/recommend';
import type { OcrModelSource } from '../downloads/catalogueDownloads';
import type { FetchLike } from '../http/transport';
import type { ModelService } from '../modelService';
import type { ModelSettingsStore } from '../modelSettingsStore';

export interface SetupServiceDeps {
  models: ModelService;
  settings: ModelSettingsStore;
  machine: () => Promise<MachineFacts>;
  hubEndpoint?: string;
  /** Tesseract's fast models: the OCR languages in use, and where they come from (GitHub unless a stand-in). */
  ocrModels?: OcrModelSource;
  fetch?: FetchLike;
  /** How long the hosts get to answer before setup says they cannot be reached. */
  reachTimeoutMs?: number;
}

export interface SetupRun {
  downloads: DownloadProgress[];
  /** Resolves once every download stopped; each role whose files all arrived is saved, whatever the others did. */
  done: Promise<SetupOutcome>;
}

export interface SetupOutcome {
  ok: boolean;
  failed: DownloadProgress[];
  choices: Partial<Record<ModelRole, RoleChoice>>;
}

const REACH_TIMEOUT_MS = 8_000;

/** The role's proposal as the download jobs it needs (decide and answer share theirs). */
function jobIds(role: RoleProposal): string[] {
  if (role.source === 'ollama' && role.ollamaModel) return [`ollama:${role.ollamaModel}`];
  if (role.source !== 'download') return [];
  return [
    ...role.companionFiles,
    ...role.files.filter((file) => !file.present).map((file) => file.fileName),
  ].map((fileName) => `${role.modelId}/${fileName}`);
}

export class SetupService {
  private running: SetupRun | null = null;

  constructor(private readonly deps: SetupServiceDeps) {}

  /** The proposal for this machine, after looking for servers and model files again. */
  async propose(): Promise<SetupProposal> {
    await this.deps.models.refresh();
    const ocrModels = this.deps.ocrModels;
    const ocr = ocrModelProposal(
      ocrModels?.languages() ?? ['eng'],
      await ocrModelsHere(this.deps.models.modelsDir),
      ocrModels?.endpoint,
    );
    return proposeModelSet(
      await this.deps.machine(),
      { servers: this.deps.models.inventory(), folder: this.deps.models.modelsFolder() },
      { hubEndpoint: this.deps.hubEndpoint, ocr },
    );
  }

  /**
   * Fails fast, with what to do instead, when a file the proposal downloads cannot be reached: asks
   * the host about the first file and gives it a few seconds.
   */
  async checkHosts(proposal: SetupProposal, roles: readonly SetupRole[] = allRoles(proposal)): Promise<void> {
    const url = proposal.roles.find((role) => roles.includes(role.role) && role.source === 'download')
      ?.files[0]?.url;
    if (!url) return;
    const timeout = AbortSignal.timeout(this.deps.reachTimeoutMs ?? REACH_TIMEOUT_MS);
    try {
      const response = await (this.deps.fetch ?? fetch)(url, {
        method: 'HEAD',
        redirect: 'manual',
        signal: timeout,
      });
      await response.body?.cancel();
      if (response.status >= 500) throw new Error(`it answered ${response.status}`);
    } catch (error) {
      const host = new URL(url).host;
      const cause = timeout.aborted
        ? `no answer within ${Math.round((this.deps.reachTimeoutMs ?? REACH_TIMEOUT_MS) / 1000)} s`
        : ((error as { cause?: { code?: string } }).cause?.code ?? toErrorInfo(error).message);
      const machine = this.deps.models.adviceMachine();
      throw new QuireError(
        'model_unavailable',
        `Could not reach ${host} to download models (${cause}); the network may be offline. ${offlineAdvice(machine, proposal.machine.modelsDir)}`,
        { offline: true },
      );
    }
  }

  /** Starts what `roles` of the proposal need; one setup runs at a time. */
  start(proposal: SetupProposal, roles: readonly SetupRole[] = allRoles(proposal)): SetupRun {
    if (this.running) return this.running;
    const chosen = proposal.roles.filter((role) => roles.includes(role.role));
    const models = this.deps.models;
    const started = new Map<string, DownloadProgress>();
    for (const role of chosen) {
      if (jobIds(role).every((id) => started.has(id))) continue;
      if (role.source === 'ollama' && role.ollamaModel && role.server) {
        const progress = models.pull(role.ollamaModel, role.server);
        started.set(progress.id, progress);
      } else if (role.source === 'download') {
        for (const progress of models.download(role.modelId)) started.set(progress.id, progress);
      }
    }
    const done = Promise.all([...started.keys()].map((id) => models.downloadSettled(id))).then(
      async (ended) => {
        const failed = ended.filter((progress) => progress.state !== 'done');
        // What arrived is used even when something else failed: a chat model without the vision one still answers.
        const failedIds = new Set(failed.map((progress) => progress.id));
        const arrived = chosen.filter((role) => jobIds(role).every((id) => !failedIds.has(id)));
        const choices = choicesFor(arrived, models.modelsDir, models.catalogue);
        if (failed.length === 0 || Object.keys(choices).length > 0)
          await this.deps.settings.chooseRoles(choices);
        await models.refresh();
        return { ok: failed.length === 0, failed, choices };
      },
    );
    const run: SetupRun = { downloads: [...started.values()], done };
    this.running = run;
    void done
      .finally(() => {
        if (this.running === run) this.running = null;
      })
      .catch(() => undefined);
    return run;
  }

  dismiss(): Promise<unknown> {
    return this.deps.settings.dismissSetup();
  }
}

function allRoles(proposal: SetupProposal): SetupRole[] {
  return proposal.roles.map((role) => role.role);
}

/** What each role uses once setup finished; roles this build cannot run yet are left to resolve later. */
function choicesFor(
  roles: readonly RoleProposal[],
  modelsDir: string,
  catalogue: readonly CatalogueModel[],
): Partial<Record<ModelRole, RoleChoice>> {
  const choices: Partial<Record<ModelRole, RoleChoice>> = {};
  for (const role of roles) {
    // The reranker and OCR models have no setting: the search and OCR find them in the models folder.
    if (!role.runtimeReady || role.role === 'rerank' || role.role === 'ocr') continue;
    if ((role.source === 'ollama' || role.source === 'server') && role.server) {
      choices[role.role] = { model: role.ollamaModel ?? role.modelId, endpoint: role.server };
    } else if (role.files[0] && (role.role === 'decide' || role.role === 'answer' || role.role === 'embed')) {
      // Where the download put it: a sentence embedder's files go in a folder of their own.
      const model = catalogue.find((candidate) => candidate.id === role.modelId);
      const fileName = model ? localFileName(model, role.files[0].fileName) : role.files[0].fileName;
      choices[role.role] = { model: join(modelsDir, fileName) };
    }
  }
  return choices;
}
