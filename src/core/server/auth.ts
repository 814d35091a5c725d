import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';

/**
 * The cookie that carries the token after the first visit, named per port: browsers send a host's
 * cookies to every port of it, so another `quire serve` on this machine must not read or overwrite it.
 */
export function tokenCookieName(port: number): string {
  return `quire_token_${port}`;
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Where `quire serve` keeps its token, so a restart keeps the open tabs (and their cookie) working. */
export const TOKEN_FILE = 'serve-token';

const TOKEN_SHAPE = /^[\w-]{32}$/;

/**
 * The data folder's token: made once and written readable by this user only (0600), then read at
 * every start. A file that is not a token (edited, truncated) is replaced by a new one. `name` is
 * the file: serve's by default, another for a door that must not open serve's.
 */
export function storedToken(dataDir: string, name = TOKEN_FILE): string {
  const file = join(dataDir, name);
  const kept = readToken(file);
  if (kept !== null) return kept;
  mkdirSync(dataDir, { recursive: true });
  const token = newToken();
  try {
    // 'wx': two servers starting at once on one folder agree on the first one's token.
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return token;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const raced = readToken(file);
  if (raced !== null) return raced;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

function readToken(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
  if (!TOKEN_SHAPE.test(text)) return null;
  // Someone widened it: the token is a password to the library, so it goes back to this user only.
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return text;
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The token a request carries, from `?token=`, an `Authorization: Bearer` header (MCP clients) or the
 * cookie set on the first visit.
 */
export function tokenOf(
  request: IncomingMessage,
  cookieName: string,
): { token: string | null; fromQuery: boolean } {
  let fromQuery: string | null = null;
  try {
    fromQuery = new URL(request.url ?? '/', 'http://localhost').searchParams.get('token');
  } catch {
    // An unparseable URL carries no token.
  }
  if (fromQuery) return { token: fromQuery, fromQuery: true };
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (bearer?.[1]) return { token: bearer[1], fromQuery: false };
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookieName) return { token: value.join('='), fromQuery: false };
  }
  return { token: null, fromQuery: false };
}

export function isAuthorised(request: IncomingMessage, expected: string, cookieName: string): boolean {
  const { token } = tokenOf(request, cookieName);
  return token !== null && sameToken(token, expected);
}

/**
 * Browsers send Host and Origin; checking both against the address we bound to stops DNS-rebinding
 * pages and other sites' scripts from reaching the server even if they learned the token.
 */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set([host, '127.0.0.1', 'localhost', '[::1]']);
  return new Set([...names].map((name) => `${name}:${port}`));
}

export function isAllowedHost(request: IncomingMessage, hosts: Set<string>): boolean {
  return hosts.has(request.headers.host ?? '');
}

export function isAllowedOrigin(request: IncomingMessage, hosts: Set<string>): boolean {
  const origin = request.headers.origin;
  if (!origin) return false;
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && hosts.has(url.host);
  } catch {
    return false;
  }
}
