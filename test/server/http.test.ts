import { get } from 'node:http';
import { connect } from 'node:net';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveServer, type LiveServer } from './harness';

let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer(async ({ staticDir, workDir }) => {
    // A link inside the UI build that leads to a file outside it.
    await writeFile(join(workDir, 'private.txt'), 'not part of the UI');
    await symlink(join(workDir, 'private.txt'), join(staticDir, 'assets', 'leak.js'));
  });
});
afterAll(() => live.close());

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET with the path sent exactly as given (fetch would re-encode it). */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port: live.server.port, path, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    request.on('error', reject);
  });
}

const withToken = (path: string) => `${path}${path.includes('?') ? '&' : '?'}token=${live.server.token}`;

describe('quire serve over HTTP', () => {
  it('names the token cookie after its port and accepts no other name', async () => {
    const first = await rawGet(withToken('/'));
    expect(first.status).toBe(200);
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^quire_token_${live.server.port}=${live.server.token};`));
    expect(cookie).toContain('HttpOnly');
    const byCookie = await rawGet('/', { Cookie: `quire_token_${live.server.port}=${live.server.token}` });
    expect(byCookie.status).toBe(200);
    const otherName = await rawGet('/', { Cookie: `quire_token=${live.server.token}` });
    expect(otherName.status).toBe(401);
    const otherPort = await rawGet('/', {
      Cookie: `quire_token_${live.server.port + 1}=${live.server.token}`,
    });
    expect(otherPort.status).toBe(401);
  });

  it('sends a CSP that reaches only its own port', async () => {
    const page = await rawGet(withToken('/'));
    const csp = String(page.headers['content-security-policy']);
    const connect = /connect-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(connect).not.toContain('*');
    for (const source of connect.split(' ').filter((s) => s.startsWith('ws:'))) {
      expect(source.endsWith(`:${live.server.port}`), source).toBe(true);
    }
  });

  it('serves only files whose real path is in the UI build', async () => {
    const app = await rawGet(withToken('/assets/app.js'));
    expect(app).toMatchObject({ status: 200, body: 'console.log("quire");' });
    const leak = await rawGet(withToken('/assets/leak.js'));
    expect(leak.status).toBe(403);
    expect(leak.body).not.toContain('not part of the UI');
    for (const climb of [
      '/../work/private.txt',
      '/%2e%2e/work/private.txt',
      '/assets/..%2f..%2fwork%2fprivate.txt',
    ]) {
      const reply = await rawGet(withToken(climb));
      expect(reply.body, climb).not.toContain('not part of the UI');
    }
  });

  it("serves the page with the library's first rows in a block no file name can close", async () => {
    // A folder name may hold `</script>`: split over two folders, `x<` and `script>`.
    const folder = join(live.workDir, 'library');
    const nested = join(folder, 'x<', 'script>');
    await mkdir(nested, { recursive: true });
    await writeFile(join(nested, 'notes.md'), '# Notes\n');
    await writeFile(join(folder, 'a.md'), '# A\n');
    const added = await live.core.dispatch('library.addFolder', { path: folder });
    expect(added.ok).toBe(true);
    await live.core.library.whenIdle();
    for (const path of ['/', '/index.html', '/some/route/the/app/draws']) {
      const page = await rawGet(withToken(path));
      expect(page.status, path).toBe(200);
      expect(page.headers['cache-control'], path).toBe('no-store');
      const blocks = [
        ...page.body.matchAll(/<script type="application\/json" id="quire-first-rows">(.*?)<\/script>/gs),
      ];
      expect(blocks, path).toHaveLength(1);
      expect(page.body.match(/<\/script>/g), path).toHaveLength(1);
      expect(page.body.indexOf('<div id="root">'), path).toBeLessThan(page.body.indexOf('quire-first-rows'));
      expect(page.body.trimEnd().endsWith('</body></html>'), path).toBe(true);
      const answer = JSON.parse(blocks[0]![1]!) as { ok: boolean; value: { documents: { path: string }[] } };
      expect(answer.ok).toBe(true);
      expect(answer.value.documents.map((doc) => doc.path)).toEqual([
        join(folder, 'a.md'),
        join(nested, 'notes.md'),
      ]);
    }
  });

  it('answers malformed %-escapes and unparseable URLs with 400, then keeps serving', async () => {
    for (const path of ['/%E0%A4%A', '/%', '/assets/%zz.js', '/%00']) {
      const reply = await rawGet(withToken(path));
      expect(reply.status, path).toBe(400);
    }
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(live.server.port, '127.0.0.1', () => {
        socket.write(`GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${live.server.port}\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
      setTimeout(() => socket.end(), 500);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect((await rawGet(withToken('/'))).status).toBe(200);
  });
});
