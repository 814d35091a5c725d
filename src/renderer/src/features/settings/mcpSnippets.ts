/** What a user pastes into another app's MCP settings to reach this library. */

/** A Claude Desktop-style `mcpServers` entry that starts `quire mcp` on the app's data folder. */
export function stdioSnippet(dataDir: string): string {
  const entry = JSON.stringify({ command: 'quire', args: ['mcp', '--data-dir', dataDir] });
  // The entry on one line: short enough to read in the settings column, still JSON to paste.
  return `{\n  "mcpServers": {\n    "quire": ${entry}\n  }\n}`;
}

/** The Streamable HTTP address with its token, for apps that take a URL. */
export function httpAddress(address: string, token: string): string {
  return `${address}?token=${encodeURIComponent(token)}`;
}
