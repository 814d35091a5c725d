import packageJson from '../../../package.json' with { type: 'json' };

/** Quire's version, as `quire --version` prints it and MCP clients are told it. */
export function quireVersion(): string {
  return packageJson.version;
}
