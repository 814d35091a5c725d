/*
 * Which page may talk to core: the built index.html (any #route of it), or in development the dev
 * server's origin compared exactly, so `http://localhost:5173.evil.example` or `http://localhost:51730`
 * never pass for `http://localhost:5173`.
 */

export function trustedPageMatcher(
  rendererIndexUrl: string,
  devServerUrl?: string,
): (url: string) => boolean {
  if (devServerUrl) {
    const devOrigin = originOf(devServerUrl);
    return (url) => devOrigin !== null && originOf(url) === devOrigin;
  }
  return (url) => url === rendererIndexUrl || url.startsWith(`${rendererIndexUrl}#`);
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}
