import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { externalUrlToOpen } from '../../src/main/externalLinks';
import { osEncryptionProtects } from '../../src/main/secretBackend';
import { trustedPageMatcher } from '../../src/main/trustedPage';

describe('the page allowed to talk to core', () => {
  it('is the dev server’s exact origin in development', () => {
    const trusted = trustedPageMatcher('file:///app/out/renderer/index.html', 'http://localhost:5173');
    expect(trusted('http://localhost:5173/')).toBe(true);
    expect(trusted('http://localhost:5173/#/chat')).toBe(true);
    for (const lookalike of [
      'http://localhost:5173.evil.example/',
      'http://localhost:51730/',
      'http://localhost:5173@evil.example/',
      'https://localhost:5173/',
      'http://127.0.0.1:5173/',
      'file:///app/out/renderer/index.html',
      'not a url',
    ]) {
      expect(trusted(lookalike), lookalike).toBe(false);
    }
  });

  it('is the built index.html, with any route, in the packaged app', () => {
    const index = 'file:///app/out/renderer/index.html';
    const trusted = trustedPageMatcher(index);
    expect(trusted(index)).toBe(true);
    expect(trusted(`${index}#/library`)).toBe(true);
    expect(trusted(`${index}.evil.html`)).toBe(false);
    expect(trusted('file:///app/out/renderer/other.html')).toBe(false);
    expect(trusted('http://localhost:5173/')).toBe(false);
  });
});

describe('where secrets may be remembered', () => {
  it('never on Linux’s basic_text fallback or without OS encryption', () => {
    expect(
      osEncryptionProtects({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'basic_text' }),
    ).toBe(false);
    expect(
      osEncryptionProtects({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'unknown' }),
    ).toBe(false);
    expect(osEncryptionProtects({ platform: 'linux', encryptionAvailable: true })).toBe(false);
    expect(osEncryptionProtects({ platform: 'darwin', encryptionAvailable: false })).toBe(false);
    expect(
      osEncryptionProtects({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'gnome_libsecret' }),
    ).toBe(true);
    expect(
      osEncryptionProtects({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'kwallet6' }),
    ).toBe(true);
    expect(osEncryptionProtects({ platform: 'darwin', encryptionAvailable: true })).toBe(true);
    expect(osEncryptionProtects({ platform: 'win32', encryptionAvailable: true })).toBe(true);
  });
});

describe('the renderer’s own CSP', () => {
  it('lets the page connect to its own origin only', () => {
    const html = readFileSync(join(import.meta.dirname, '..', '..', 'src', 'renderer', 'index.html'), 'utf8');
    const policy = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(/connect-src ([^;]*)/.exec(policy)?.[1]?.trim()).toBe("'self'");
  });
});

describe('links handed to the system browser', () => {
  it('are plain http(s) URLs without credentials, nothing else', () => {
    expect(externalUrlToOpen('https://arxiv.org/pdf/2401.00001.pdf')).toBe(
      'https://arxiv.org/pdf/2401.00001.pdf',
    );
    expect(externalUrlToOpen('http://example.org/a b.pdf')).toBe('http://example.org/a%20b.pdf');
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,hi',
      'smb://host/share',
      'vscode://file/x',
      'https://user:secret@example.org/',
      'not a url',
    ]) {
      expect(externalUrlToOpen(url), url).toBeNull();
    }
  });
});
