import { join } from 'node:path';
import { ModelSettings, type ModelRole, type RoleChoice } from '../../shared/domain/models';
import { readJsonOr, writeJsonAtomic } from '../common/atomicFile';

const EMPTY: ModelSettings = { roles: {}, servers: [], setupDismissed: false };

/** The user's model choices (a model per role, extra servers), kept in `<dataDir>/model-settings.json`. */
export class ModelSettingsStore {
  private settings: ModelSettings = EMPTY;
  private readonly file: string;

  /** `onChange` runs after every saved change (core re-resolves the roles) before the call returns. */
  constructor(
    dataDir: string,
    private readonly onChange: () => Promise<unknown> = async () => undefined,
  ) {
    this.file = join(dataDir, 'model-settings.json');
  }

  get current(): ModelSettings {
    return this.settings;
  }

  /** A file that is not valid falls back to automatic choices rather than stopping the app. */
  async load(): Promise<ModelSettings> {
    const parsed = ModelSettings.safeParse(await readJsonOr(this.file, EMPTY).catch(() => EMPTY));
    this.settings = parsed.success ? parsed.data : EMPTY;
    return this.settings;
  }

  async chooseRole(role: ModelRole, choice: RoleChoice | null): Promise<ModelSettings> {
    const roles = { ...this.settings.roles };
    if (choice) roles[role] = choice;
    else delete roles[role];
    return this.save({ ...this.settings, roles });
  }

  /** Several roles in one save (the setup writes its whole set at once); null clears a role. */
  async chooseRoles(choices: Partial<Record<ModelRole, RoleChoice | null>>): Promise<ModelSettings> {
    const roles = { ...this.settings.roles };
    for (const [role, choice] of Object.entries(choices) as Array<[ModelRole, RoleChoice | null]>) {
      if (choice) roles[role] = choice;
      else delete roles[role];
    }
    return this.save({ ...this.settings, roles, setupDismissed: true });
  }

  /** The user put the first-run setup off; the Models panel still offers it. */
  async dismissSetup(): Promise<ModelSettings> {
    return this.save({ ...this.settings, setupDismissed: true });
  }

  async setServers(servers: string[]): Promise<ModelSettings> {
    const unique = [...new Set(servers.map((url) => url.replace(/\/+$/, '')))];
    return this.save({ ...this.settings, servers: unique });
  }

  private async save(next: ModelSettings): Promise<ModelSettings> {
    await writeJsonAtomic(this.file, next);
    this.settings = next;
    await this.onChange();
    return next;
  }
}
