import { createRequire } from 'node:module';
import type { Configuration } from 'app-builder-lib';

const require = createRequire(import.meta.url);

interface BuilderConfigModule {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: null): Promise<Configuration>;
  validateConfiguration(config: Configuration, debugLogger: unknown): Promise<void>;
}

/**
 * Loads an electron-builder configuration the way `electron-builder --config FILE` does (parents it
 * extends included) and validates it with the schema electron-builder ships, through its own code.
 */
export async function loadBuilderConfig(
  projectDir: string,
  configFile: string,
): Promise<{ config: Configuration | null; problems: string[] }> {
  const { getConfig, validateConfiguration } =
    require('app-builder-lib/out/util/config/config') as BuilderConfigModule;
  const { DebugLogger } = require('builder-util/out/DebugLogger') as {
    DebugLogger: new (enabled: boolean) => unknown;
  };
  try {
    const config = await getConfig(projectDir, configFile, null);
    await validateConfiguration(config, new DebugLogger(false));
    return { config, problems: [] };
  } catch (error) {
    return { config: null, problems: [`${configFile}: ${(error as Error).message}`] };
  }
}

/** electron-builder's own version, for the report. */
export function builderVersion(): string {
  return (require('app-builder-lib/package.json') as { version: string }).version;
}
