/*
 * Hosts that state no hash for a file, such as GitHub's raw files: a download from them is checked
 * only against the size and sha256 Quire pins, so it is allowed only over https to a host on this
 * list, and wherever a redirect leads it must stay on https. A loopback address is accepted as well
 * (a local mirror, or the tests' stand-in host), as it is for the object-store endpoint.
 */
import { QuireError } from '../../../shared/errors';

/** Hosts whose files Quire fetches by a pinned hash alone. */
export const PINNED_ONLY_HOSTS: ReadonlySet<string> = new Set(['raw.githubusercontent.com']);

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

function parsed(url: string, fileName: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new QuireError('invalid_input', `Not an address to download ${fileName} from: ${url}`);
  }
}

/** Refuses a request that a pinned hash alone cannot make safe: another host, plain http, no pin. */
export function checkPinnedOnlyRequest(request: {
  url: string;
  fileName: string;
  sha256?: string | null;
  sizeBytes?: number;
}): void {
  const url = parsed(request.url, request.fileName);
  const allowed =
    isLoopback(url.hostname) || (url.protocol === 'https:' && PINNED_ONLY_HOSTS.has(url.hostname));
  if (!allowed) {
    throw new QuireError(
      'invalid_input',
      `${request.fileName} can only be downloaded over https from ${[...PINNED_ONLY_HOSTS].join(', ')}, not from ${url.protocol}//${url.host}.`,
    );
  }
  if (!request.sha256 || request.sizeBytes === undefined) {
    throw new QuireError(
      'model_failed',
      `${url.host} states no hash for ${request.fileName} and Quire pins none, so it cannot be verified; nothing was downloaded.`,
    );
  }
}

/** Refuses a response that a redirect took off https (a loopback stand-in excepted). */
export function checkPinnedOnlyResponse(response: Response, fileName: string): void {
  if (!response.url) return;
  const url = parsed(response.url, fileName);
  if (url.protocol !== 'https:' && !isLoopback(url.hostname)) {
    throw new QuireError(
      'model_failed',
      `The download of ${fileName} was redirected to ${url.protocol}//${url.host}, which is not https; nothing was kept.`,
    );
  }
}
