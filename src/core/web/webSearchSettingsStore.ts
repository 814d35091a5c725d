import { join } from 'node:path';
import { WebSearchSettings } from '../../shared/domain/web';
import { readJsonOr, writeJsonAtomic } from '../common/atomicFile';

const OFF: WebSearchSettings = WebSearchSettings.parse({});

/** The web search setting, kept in `<dataDir>/web-search.json`; off unless the user turned it on. */
export class WebSearchSettingsStore {
  private settings: WebSearchSettings = OFF;
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'web-search.json');
  }

  get current(): WebSearchSettings {
    return this.settings;
  }

  /** Whether a search may leave the machine now. */
  get active(): boolean {
    return this.settings.enabled && this.settings.searxngUrl !== null;
  }

  /** A missing or damaged file means off. */
  async load(): Promise<WebSearchSettings> {
    const parsed = WebSearchSettings.safeParse(await readJsonOr(this.file, OFF).catch(() => OFF));
    this.settings = parsed.success ? parsed.data : OFF;
    return this.settings;
  }

  async update(change: Partial<WebSearchSettings>): Promise<WebSearchSettings> {
    const next = WebSearchSettings.parse({ ...this.settings, ...change });
    await writeJsonAtomic(this.file, next);
    this.settings = next;
    return next;
  }
}
