/*
 * The state of one resolution: the inputs, the roles settled so far, and the steps every resolver
 * shares (the user's choice, a running server, a GGUF run in-process, the sentence for nothing).
 */
import type { ModelRole } from '../../shared/domain/models';
import type { LocalModel } from './catalogue/modelsFolder';
import type { ServerInventory } from './detection/detectServers';
import {
  fromLocal,
  fromOnnx,
  fromOnnxText,
  fromServer,
  fromVision,
  GENERIC_ADVICE,
  isLocalPath,
  nothing,
  sameModel,
  serverName,
  suits,
  WHAT,
  type ResolvedRole,
} from './roleResults';

/** A model picked by the user for a role: a served model's name (optionally on one server) or a GGUF path. */
export interface RoleChoice {
  model: string;
  endpoint?: string;
}

export type RoleSettings = Partial<Record<ModelRole, RoleChoice>>;

/** What the memory planner says about loading a model inside Quire. */
export interface InProcessAllowance {
  allowed: boolean;
  /** Why not, in words, when not allowed. */
  reason?: string;
}

/** A vision model run in-process is two files: the language model and its projector. */
export interface VisionModelFiles {
  modelPath: string;
  projectorPath: string;
}

export interface ResolveRolesInput {
  settings: RoleSettings;
  servers: ServerInventory[];
  /** From `--model` or QUIRE_MODEL: a GGUF for the text roles. */
  localModelPath: string | null;
  /** What the models folder offers each role (catalogue downloads and GGUF files put there). */
  localModels?: Partial<Record<ModelRole, LocalModel>>;
  /** From `--embedder` or QUIRE_EMBEDDER: an ONNX sentence embedder (folder) for the embed role. */
  embedderPath?: string | null;
  /** From `--page-embedder` or QUIRE_PAGE_EMBEDDER: an ONNX page embedder run in-process. */
  pageEmbedderPath?: string | null;
  /** From `--vision-model` and `--vision-projector` (or QUIRE_VISION_MODEL, QUIRE_VISION_PROJECTOR). */
  visionModel?: VisionModelFiles | null;
  inProcess?: InProcessAllowance;
  /** Local GGUF and ONNX files that cannot be used (truncated, corrupt, failed to load), with the reason. */
  unusableModels?: ReadonlyMap<string, string>;
  /** How to get a model for a role on this machine (catalogue/advice.ts). */
  advice?: (role: ModelRole) => string;
}

export class Resolution {
  private readonly resolved = new Map<ModelRole, ResolvedRole>();
  private readonly inProcess: InProcessAllowance;

  constructor(private readonly input: ResolveRolesInput) {
    this.inProcess = input.inProcess ?? { allowed: true };
  }

  get(role: ModelRole): ResolvedRole | undefined {
    return this.resolved.get(role);
  }

  set(role: ModelRole, value: ResolvedRole): void {
    this.resolved.set(role, value);
  }

  private advice(role: ModelRole): string {
    return this.input.advice?.(role) ?? GENERIC_ADVICE[role];
  }

  /** The user's choice for a role, or why it cannot be honoured. */
  choice(role: ModelRole): ResolvedRole | string | null {
    const choice = this.input.settings[role];
    if (!choice) return null;
    if (isLocalPath(choice.model)) {
      const problem = this.input.unusableModels?.get(choice.model);
      if (problem)
        return `\`${choice.model}\` (chosen in settings) cannot be used: ${problem.replace(/\.$/, '')}`;
      // The embed role runs a GGUF or an ONNX sentence embedder (its .onnx file or its folder).
      if (role === 'embed' && !/\.gguf$/i.test(choice.model))
        return fromOnnxText(
          choice.model,
          `Chosen in settings: texts are embedded in-process by the ONNX model \`${choice.model}\`.`,
        );
      const onnx = /\.onnx$/i.test(choice.model);
      if (onnx !== (role === 'pageEmbed'))
        return `\`${choice.model}\` (chosen in settings) cannot serve the ${role} role: ${onnx ? 'an ONNX file is a page embedder' : 'page search takes an ONNX page embedder'}`;
      if (onnx)
        return fromOnnx(
          choice.model,
          `Chosen in settings: page images are embedded in-process by \`${choice.model}\`.`,
        );
      if (role === 'see') {
        const projector = this.projectorFor(choice.model);
        if (projector === null)
          return `\`${choice.model}\` (chosen in settings) needs its projector (mmproj) to read images: give both with --vision-model and --vision-projector`;
        return this.inProcessVision(
          { modelPath: choice.model, projectorPath: projector },
          `Chosen in settings: runs in-process (llama.cpp with image input, in its own process) from \`${choice.model}\` with the projector \`${projector}\`.`,
        );
      }
      if (!this.inProcess.allowed)
        return `\`${choice.model}\` (chosen in settings) does not fit in memory: ${this.inProcess.reason ?? 'not enough free memory'}`;
      return fromLocal(role, choice.model, `Chosen in settings: runs in-process from \`${choice.model}\`.`);
    }
    const candidates = this.input.servers.filter(
      (server) =>
        choice.endpoint === undefined ||
        server.endpoint.replace(/\/+$/, '') === choice.endpoint.replace(/\/+$/, ''),
    );
    for (const server of candidates) {
      if (!server.reachable) continue;
      const served = server.served.find((model) => sameModel(server, model.name, choice.model));
      if (served)
        return fromServer(role, server, served, `Chosen in settings; served by ${serverName(server)}.`);
    }
    const ollama = candidates.find((server) => server.reachable && server.kind === 'ollama');
    if (ollama)
      return `\`${choice.model}\` (chosen in settings) is not pulled in Ollama: run \`ollama pull ${choice.model}\``;
    return `\`${choice.model}\` (chosen in settings) is not served by any running server`;
  }

  served(role: ModelRole): ResolvedRole | null {
    const reachable = this.input.servers.filter((server) => server.reachable);
    // One chat model for deciding, answering and seeing keeps a single model in memory.
    const answer = this.get('answer');
    const preferred = (role === 'decide' || role === 'see') && answer?.via === 'server' ? answer.model : null;
    if (preferred !== null) {
      for (const server of reachable) {
        const model = server.served.find(
          (candidate) => candidate.name === preferred && suits(candidate, role),
        );
        if (model)
          return fromServer(
            role,
            server,
            model,
            `Served by ${serverName(server)} (\`${model.name}\`, also the answer model).`,
          );
      }
    }
    for (const server of reachable) {
      const model = server.served.find((candidate) => suits(candidate, role));
      if (model)
        return fromServer(
          role,
          server,
          model,
          `Served by ${serverName(server)} (\`${model.name}\`, the first ${WHAT[role]} it lists).`,
        );
    }
    return null;
  }

  /** A GGUF run in-process, or why it cannot be: a broken file, or not enough memory. */
  inProcessModel(role: ModelRole, path: string, why: string): ResolvedRole {
    const problem = this.input.unusableModels?.get(path);
    if (problem)
      return nothing(
        role,
        `The GGUF ${path} cannot be used: ${problem} Until it is replaced, ${this.advice(role)}`,
      );
    if (this.inProcess.allowed) return fromLocal(role, path, why);
    return nothing(
      role,
      `\`${path}\` does not fit in memory (${this.inProcess.reason ?? 'not enough free memory'}); ${this.advice(role)}`,
    );
  }

  /** The projector known for a vision GGUF: the one given at launch, or the models folder's. */
  projectorFor(modelPath: string): string | null {
    if (this.input.visionModel?.modelPath === modelPath) return this.input.visionModel.projectorPath;
    const local = this.input.localModels?.see;
    return local?.path === modelPath ? local.projectorPath : null;
  }

  /** A vision model run in-process, or why it cannot be: a broken file (either of the two), or memory. */
  inProcessVision(files: VisionModelFiles, why: string): ResolvedRole {
    const problem =
      this.input.unusableModels?.get(files.modelPath) ?? this.input.unusableModels?.get(files.projectorPath);
    if (problem)
      return nothing(
        'see',
        // The problem names the file at fault (the model or its projector) and why.
        `${problem} Until it is replaced, ${this.advice('see')}`,
      );
    if (this.inProcess.allowed) return fromVision(files.modelPath, files.projectorPath, why);
    return nothing(
      'see',
      `\`${files.modelPath}\` does not fit in memory (${this.inProcess.reason ?? 'not enough free memory'}); ${this.advice('see')}`,
    );
  }

  /** Says which running servers lack the model, so the user knows where to add one. */
  missing(role: ModelRole, extra = ''): ResolvedRole {
    const reachable = this.input.servers.filter((server) => server.reachable);
    const where =
      reachable.length === 0
        ? `No model server is running and no ${WHAT[role]} is set up`
        : `${reachable.map(serverName).join(', ')} ${reachable.length === 1 ? 'is' : 'are'} running but ${reachable.length === 1 ? 'has' : 'have'} no ${WHAT[role]}`;
    return nothing(role, `${where}${extra}: ${this.advice(role)}`);
  }

  local(role: ModelRole): LocalModel | undefined {
    return this.input.localModels?.[role];
  }
}
