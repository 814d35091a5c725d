/*
 * The model set proposed for one machine: a pure function of the machine (memory, Apple Silicon,
 * free disk), what is already there (servers, models pulled in Ollama, files in the models folder)
 * and the catalogue. The CLI (`quire models recommend|setup`), the app's first-run setup and the
 * advice in status messages all read it, so they never disagree.
 */
import { basename } from 'node:path';
import type { RoleProposal, SetupProposal } from '../../../shared/domain/models';
import { appHeadroomBytes, formatBytes, UNIFIED_GPU_WORKING_SET_SHARE } from '../../memory/capacity';
import type { ServerInventory } from '../detection/detectServers';
import { can, type ModelCapability } from '../detection/modelCapabilities';
import {
  candidatesFor,
  fileBytes,
  fileUrl,
  localFileName,
  memoryBytes,
  RUNTIMES_IN_THIS_BUILD,
  type CatalogueModel,
  type CatalogueRole,
} from './catalogue';
import { localModelFor, type ModelsFolder } from './modelsFolder';

export interface MachineFacts {
  totalBytes: number;
  unifiedMemory: boolean;
  /** Apple Silicon: llama.cpp runs on the GPU through Metal. */
  appleSilicon: boolean;
  /** Free bytes on the disk holding the models folder; null when it could not be read. */
  freeDiskBytes: number | null;
  modelsDir: string;
}

export interface WhatIsThere {
  /** Servers found on this machine or added by the user, reachable or not. */
  servers: ServerInventory[];
  folder: ModelsFolder;
}

export interface ProposalOptions {
  /** Hugging Face or a mirror (HF_ENDPOINT). */
  hubEndpoint?: string;
  /** Tesseract's fast models for the OCR languages in use (ocrProposal.ts), proposed beside the roles. */
  ocr?: RoleProposal | null;
}

/**
 * On the CPU a bigger model answers slowly enough to feel broken; without Metal the proposal stops
 * at this strength (Qwen3 4B).
 */
const CPU_MAX_STRENGTH = 2;

/** Every role, and the reranker the agent's search uses to re-order results. */
const ROLES: readonly CatalogueRole[] = ['decide', 'answer', 'embed', 'pageEmbed', 'see', 'rerank'];

/** What a served model must do to take a role; no server API ranks passages, so `rerank` has none. */
const ROLE_NEEDS: Record<CatalogueRole, ModelCapability | null> = {
  decide: 'chat',
  answer: 'chat',
  embed: 'embed',
  pageEmbed: 'multiVector',
  see: 'vision',
  rerank: null,
};

/**
 * Share of RAM a machine in everyday use leaves to new work: the system and the apps people keep
 * open hold the rest. The proposal plans for that machine, not for an idle one.
 */
const IN_USE_AVAILABLE_SHARE = 0.7;

/** Bytes all models together may hold on this machine while it is in use. */
export function modelBudgetBytes(machine: Pick<MachineFacts, 'totalBytes' | 'unifiedMemory'>): number {
  const budget = IN_USE_AVAILABLE_SHARE * machine.totalBytes - appHeadroomBytes(machine.totalBytes);
  return machine.unifiedMemory
    ? Math.min(budget, UNIFIED_GPU_WORKING_SET_SHARE * machine.totalBytes)
    : budget;
}

/**
 * At or below this much memory the light text embedder is proposed: the 0.6B one with its context
 * would take memory the chat model needs more.
 */
export const LIGHT_EMBEDDER_MAX_TOTAL_BYTES = 8 * 1024 ** 3;

function strongest(role: CatalogueRole): CatalogueModel {
  const model = candidatesFor(role)[0];
  if (!model) throw new Error(`The catalogue has no model for ${role}.`);
  return model;
}

/** The catalogue model for `role` on this machine, and why. */
export function pickModel(
  role: CatalogueRole,
  machine: Pick<MachineFacts, 'totalBytes' | 'unifiedMemory' | 'appleSilicon'>,
): { model: CatalogueModel; why: string } {
  if (role === 'embed' && machine.totalBytes <= LIGHT_EMBEDDER_MAX_TOTAL_BYTES) {
    const lightest = candidatesFor('embed').sort((a, b) => memoryBytes(a) - memoryBytes(b))[0];
    if (lightest)
      return {
        model: lightest,
        why: `the catalogue's light text embedding model, for a machine with ${formatBytes(machine.totalBytes)}: it leaves the chat model room`,
      };
  }
  if (role !== 'decide' && role !== 'answer') {
    const model = strongest(role);
    const kind = {
      embed: 'text embedding',
      pageEmbed: 'page-image embedding',
      see: 'vision',
      rerank: 'search result',
    }[role];
    if (role === 'rerank')
      return {
        model,
        why: `the catalogue's reranker; without it the chat model re-ranks search results, more slowly`,
      };
    return { model, why: `the catalogue's ${kind} model` };
  }
  const budget = modelBudgetBytes(machine);
  // The chat model shares memory with the embedders; the vision model loads only to read pages.
  const alongside = memoryBytes(pickModel('embed', machine).model) + memoryBytes(strongest('pageEmbed'));
  const cap = machine.appleSilicon ? Infinity : CPU_MAX_STRENGTH;
  const candidates = candidatesFor('answer');
  const fitting = candidates.filter((model) => memoryBytes(model) + alongside <= budget);
  const chosen = fitting.find((model) => model.strength <= cap) ?? candidates.at(-1)!;
  const total = formatBytes(machine.totalBytes);
  if (!fitting.includes(chosen))
    return { model: chosen, why: `the smallest chat model; even it is tight in ${total}` };
  const stronger = fitting.find((model) => model.strength > chosen.strength);
  if (stronger && !machine.appleSilicon) {
    return {
      model: chosen,
      why: `with no GPU acceleration models run on the CPU, where generation speed follows the weights' size and ${stronger.label} (${formatBytes(fileBytes(stronger))} of weights against ${formatBytes(fileBytes(chosen))}) would answer more slowly; ${chosen.label} fits in ${total} beside the embedders`,
    };
  }
  return {
    model: chosen,
    why: `the strongest chat model that fits in ${total}${machine.appleSilicon ? ' of unified memory, on the GPU through Metal' : ''} beside the embedders`,
  };
}

function suits(model: ServerInventory['served'][number], role: CatalogueRole): boolean {
  const needs = ROLE_NEEDS[role];
  if (needs === null) return false;
  if (role === 'embed') return can(model, 'embed') && !can(model, 'multiVector');
  return can(model, needs);
}

function servedAlready(role: CatalogueRole, servers: readonly ServerInventory[]) {
  for (const server of servers) {
    if (!server.reachable) continue;
    const model = server.served.find((candidate) => suits(candidate, role));
    if (model) return { server, model };
  }
  return null;
}

function proposeRole(
  role: CatalogueRole,
  machine: MachineFacts,
  there: WhatIsThere,
  options: ProposalOptions,
): RoleProposal {
  const { model, why } = pickModel(role, machine);
  const base = {
    role,
    modelId: model.id,
    label: model.label,
    licence: model.licence,
    quality: `${model.quality.note} (${model.quality.source})`,
    ollamaModel: null,
    server: null,
    companionFiles: model.companionFiles,
  };
  const served = servedAlready(role, there.servers);
  if (served) {
    return {
      ...base,
      modelId: served.model.name,
      label: served.model.name,
      licence: 'as the server states',
      quality: 'not in the catalogue',
      source: 'server',
      server: served.server.endpoint,
      files: [],
      companionFiles: [],
      downloadBytes: 0,
      memoryBytes: served.model.sizeBytes,
      reason: `already served by ${served.server.label}: nothing to download`,
      runtimeReady: true,
    };
  }
  const local = localModelFor(role, there.folder);
  if (local && local.catalogue?.id !== model.id) {
    const name = basename(local.path);
    const stronger =
      local.catalogue && local.catalogue.strength < model.strength
        ? `; ${model.label} would be stronger`
        : '';
    return {
      ...base,
      modelId: local.catalogue?.id ?? name,
      label: local.catalogue?.label ?? name,
      licence: local.catalogue?.licence ?? 'as the file states',
      quality: local.catalogue ? base.quality : 'not in the catalogue',
      source: 'present',
      files: [],
      companionFiles: [],
      downloadBytes: 0,
      memoryBytes: local.catalogue ? memoryBytes(local.catalogue) : null,
      reason: `${name} is already in the models folder${stronger}`,
      runtimeReady: local.runtimeReady,
    };
  }
  const files = model.files.map((file) => ({
    fileName: file.fileName,
    repository: file.repository,
    revision: file.revision,
    url: fileUrl(file, options.hubEndpoint),
    sizeBytes: file.sizeBytes,
    sizeExact: file.sizeExact,
    sha256: file.sha256,
    present: there.folder.presentFiles.has(localFileName(model, file.fileName)),
  }));
  const runtimeReady = RUNTIMES_IN_THIS_BUILD.has(model.runtime);
  const noRuntime = runtimeReady
    ? ''
    : `; this build cannot run it in-process yet (${role === 'see' ? 'answers read page text only' : 'page vectors come from the text embedder'} until it can)`;
  const ollama = there.servers.find((server) => server.kind === 'ollama' && server.reachable);
  if (files.every((file) => file.present)) {
    return {
      ...base,
      source: 'present',
      files,
      downloadBytes: 0,
      memoryBytes: memoryBytes(model),
      reason: `${why}; already downloaded${noRuntime}`,
      runtimeReady,
    };
  }
  if (ollama && model.ollama) {
    return {
      ...base,
      source: 'ollama',
      ollamaModel: model.ollama,
      server: ollama.endpoint,
      files: [],
      companionFiles: [],
      downloadBytes: model.files.reduce((sum, file) => sum + file.sizeBytes, 0),
      memoryBytes: memoryBytes(model),
      reason: `${why}; Ollama is running, so it comes from \`ollama pull ${model.ollama}\``,
      runtimeReady: true,
    };
  }
  return {
    ...base,
    source: 'download',
    files,
    downloadBytes: files.filter((file) => !file.present).reduce((sum, file) => sum + file.sizeBytes, 0),
    memoryBytes: memoryBytes(model),
    reason: `${why}${noRuntime}`,
    runtimeReady,
  };
}

/** Each model counted once, whichever roles it takes. */
function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

export function proposeModelSet(
  machine: MachineFacts,
  there: WhatIsThere,
  options: ProposalOptions = {},
): SetupProposal {
  const roles = ROLES.map((role) => proposeRole(role, machine, there, options));
  if (options.ocr) roles.push(options.ocr);
  const models = uniqueBy(roles, (role) => `${role.source}|${role.server ?? ''}|${role.modelId}`);
  const downloadBytes = models.reduce((sum, role) => sum + role.downloadBytes, 0);
  const memoryOf = (list: RoleProposal[]) => list.reduce((sum, role) => sum + (role.memoryBytes ?? 0), 0);
  const resident = models.filter((role) => role.role !== 'see');
  const notes: string[] = [];
  const fileDownloads = models
    .filter((role) => role.source === 'download')
    .reduce((sum, role) => sum + role.downloadBytes, 0);
  const fitsOnDisk = machine.freeDiskBytes === null ? null : fileDownloads <= machine.freeDiskBytes;
  if (fitsOnDisk === false) {
    notes.push(
      `The downloads need ${formatBytes(fileDownloads)} and ${formatBytes(machine.freeDiskBytes ?? 0)} is free on the disk holding ${machine.modelsDir}.`,
    );
  }
  if (models.some((role) => role.source === 'ollama'))
    notes.push('Ollama pulls are sized here as the GGUF files; Ollama reports the exact size as it pulls.');
  if (models.some((role) => role.files.some((file) => file.sha256 === null)))
    notes.push(
      'Files without a published sha256 are checked against the hash the host states when they download.',
    );
  // Said once here; the machine line above the set names the memory only.
  if (!machine.appleSilicon) notes.push('No GPU acceleration: models run on the CPU.');
  return {
    machine: {
      totalMemoryBytes: machine.totalBytes,
      unifiedMemory: machine.unifiedMemory,
      appleSilicon: machine.appleSilicon,
      acceleration: machine.appleSilicon ? 'metal' : 'cpu',
      freeDiskBytes: machine.freeDiskBytes,
      modelsDir: machine.modelsDir,
    },
    found: {
      servers: there.servers
        .filter((server) => server.reachable)
        .map((server) => `${server.label} (${server.endpoint})`),
      ollamaModels: there.servers
        .filter((server) => server.kind === 'ollama' && server.reachable)
        .flatMap((server) => server.models),
      modelFiles: [...there.folder.presentFiles, ...there.folder.otherGgufs],
    },
    roles,
    totals: {
      downloadBytes,
      memoryBytes: memoryOf(resident),
      peakMemoryBytes: memoryOf(models),
      fitsOnDisk,
    },
    notes,
  };
}
