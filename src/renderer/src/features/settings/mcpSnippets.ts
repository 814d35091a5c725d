/** What a user pastes into another app's MCP settings to reach this library. */

/** A Claude Desktop-style `mcpServers` entry that starts `quire mcp` on the app's data folder. */
export function stdioSnippet(dataDir: string): string {
  const entry = { command: 'quire', args: ['mcp', '--data-dir', dataDir] };
  return JSON.stringify({ mcpServers: { quire: entry } }, null, 2);
}

/** The Streamable HTTP address with its token, for apps that take a URL. */
export function httpAddress(address: string, token: string): string {
  return `${address}?token=${encodeURIComponent(token)}`;
}
