/*
 * A stand-in for GitHub releases as electron-updater's GitHub provider reads them, on 127.0.0.1 (the
 * provider speaks to a host other than github.com the way it speaks to GitHub Enterprise):
 *   GET /{owner}/{repo}/releases.atom                          the releases feed (Atom)
 *   GET /api/v3/repos/{owner}/{repo}/releases/latest           {"tag_name": "v1.2.3", ...}
 *   GET /{owner}/{repo}/releases/download/{tag}/{file}         assets: latest.yml, latest-mac.yml,
 *                                                              latest-linux.yml and the installers
 * The latest*.yml files have the shape electron-builder publishes (version, files with url, sha512
 * in base64 and size, path, sha512, releaseDate), computed from the installer bytes served.
 */
import { createHash } from 'node:crypto';
import { sendJson, startStandIn, type StandInServer } from './httpStandIn';

export interface ReleaseFeedOptions {
  owner: string;
  repo: string;
  version: string;
  notes: string;
  /** Installer bytes by file name, e.g. `Quire-Setup-1.2.3.exe`. */
  installers: Record<string, Uint8Array>;
  /** Make latest*.yml state this sha512 instead of the real one (a tampered or corrupt download). */
  wrongSha512?: boolean;
}

export interface ReleaseFeedStandIn extends StandInServer {
  /** The `host` value for app-update.yml: `127.0.0.1:PORT`. */
  host: string;
  /** Paths of asset downloads, in order. */
  readonly assetRequests: string[];
}

function sha512(bytes: Uint8Array): string {
  return createHash('sha512').update(bytes).digest('base64');
}

/** One latest*.yml in electron-builder's format for the given files (the first is `path`). */
export function channelFile(
  version: string,
  files: Array<{ name: string; bytes: Uint8Array }>,
  wrong = false,
) {
  const hash = (bytes: Uint8Array) => (wrong ? sha512(Buffer.from('not the installer')) : sha512(bytes));
  const [main] = files;
  return [
    `version: ${version}`,
    'files:',
    ...files.flatMap((file) => [
      `  - url: ${file.name}`,
      `    sha512: ${hash(file.bytes)}`,
      `    size: ${file.bytes.byteLength}`,
    ]),
    `path: ${main!.name}`,
    `sha512: ${hash(main!.bytes)}`,
    `releaseDate: '2026-11-20T09:30:00.000Z'`,
    '',
  ].join('\n');
}

export async function startReleaseFeedStandIn(options: ReleaseFeedOptions): Promise<ReleaseFeedStandIn> {
  const tag = `v${options.version}`;
  const base = `/${options.owner}/${options.repo}`;
  const files = Object.entries(options.installers).map(([name, bytes]) => ({ name, bytes }));
  const pick = (test: RegExp) => files.filter((file) => test.test(file.name));
  const assets = new Map<string, string | Uint8Array>([
    ['latest.yml', channelFile(options.version, pick(/\.exe$/), options.wrongSha512)],
    ['latest-mac.yml', channelFile(options.version, pick(/-mac\.zip$|\.dmg$/), options.wrongSha512)],
    ['latest-linux.yml', channelFile(options.version, pick(/\.AppImage$/), options.wrongSha512)],
    ...files.map((file) => [file.name, file.bytes] as [string, Uint8Array]),
  ]);
  const assetRequests: string[] = [];

  const atom = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US">',
    `  <id>tag:github.com,2008:https://github.com${base}/releases</id>`,
    `  <title>Release notes from ${options.repo}</title>`,
    '  <entry>',
    `    <id>tag:github.com,2008:Repository/1/${tag}</id>`,
    '    <updated>2026-11-20T09:30:00Z</updated>',
    `    <link rel="alternate" type="text/html" href="https://github.com${base}/releases/tag/${tag}"/>`,
    `    <title>Quire ${options.version}</title>`,
    `    <content type="html">&lt;p&gt;${options.notes}&lt;/p&gt;</content>`,
    '  </entry>',
    '</feed>',
    '',
  ].join('\n');

  const server = await startStandIn((request, response) => {
    const path = request.path.split('?')[0]!;
    if (path === `${base}/releases.atom`) {
      response.writeHead(200, { 'content-type': 'application/atom+xml; charset=utf-8' });
      response.end(atom);
      return;
    }
    if (path === `/api/v3/repos/${options.owner}/${options.repo}/releases/latest`) {
      sendJson(response, 200, {
        tag_name: tag,
        name: `Quire ${options.version}`,
        draft: false,
        prerelease: false,
      });
      return;
    }
    const download = `${base}/releases/download/${tag}/`;
    const asset = path.startsWith(download)
      ? assets.get(decodeURIComponent(path.slice(download.length)))
      : undefined;
    if (asset === undefined) {
      sendJson(response, 404, { message: 'Not Found' });
      return;
    }
    assetRequests.push(path.slice(download.length));
    response.writeHead(200, {
      'content-type': typeof asset === 'string' ? 'text/yaml' : 'application/octet-stream',
      'content-length': Buffer.byteLength(asset),
    });
    response.end(asset);
  });
  return Object.assign(server, { host: `127.0.0.1:${server.port}`, assetRequests });
}
