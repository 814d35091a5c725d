import { connect } from 'node:net';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
// A loopback port either answers or refuses at once; anything slower is left to the request itself.
const CONNECT_TIMEOUT_MS = 250;

/** Loopback addresses seen accepting a connection: asked once per process, then trusted. */
const seenListening = new Set<string>();

/**
 * Whether nothing listens at a loopback base URL, found with one TCP connect. Probing the known model
 * server ports is most often answered this way (no server running), and Node's fetch costs about
 * 150 ms of start-up the first time it is called: `quire search` must not pay that to learn nothing
 * is there. Any other outcome (a remote host, a listener, a timeout) says false, and the request runs.
 */
export async function loopbackRefuses(baseUrl: string, signal?: AbortSignal): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return false;
  const port = Number(url.port || 80);
  const key = `${url.hostname}:${port}`;
  if (seenListening.has(key)) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, signal });
    const settle = (refused: boolean) => {
      socket.destroy();
      resolve(refused);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => settle(false));
    socket.once('connect', () => {
      seenListening.add(key);
      settle(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => settle(error.code === 'ECONNREFUSED'));
  });
}
