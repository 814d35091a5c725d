/*
 * Which links the window may hand to the system browser: web pages the UI shows (a PDF the agent
 * proposes from a web search), as plain http(s) URLs without credentials. Anything else (file:,
 * custom schemes that launch other apps, javascript:, user:password@host) is never opened.
 */

export function externalUrlToOpen(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.username || parsed.password) return null;
  return parsed.href;
}
