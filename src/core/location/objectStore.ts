import { QuireError } from '../../shared/errors';
import { awsEncode, signRequest, type AwsCredentials } from './awsSigning';
import { withoutSecrets, type LibraryLocation } from './libraryLocation';

/**
 * Objects under a library location's prefix, over the S3 API (path-style addresses, so any
 * S3-compatible server works). Every failure becomes a QuireError that names the location and never
 * a key.
 */
export class ObjectStore {
  private readonly base: string;

  constructor(
    readonly location: LibraryLocation,
    private readonly credentials: AwsCredentials,
  ) {
    this.base = location.endpoint ?? `https://s3.${location.region}.amazonaws.com`;
  }

  private url(key: string): URL {
    const full = [this.location.prefix, key].filter(Boolean).join('/');
    return new URL(
      `${this.base.replace(/\/+$/, '')}/${awsEncode(this.location.bucket)}/${awsEncode(full, true)}`,
    );
  }

  private async send(
    method: string,
    url: URL,
    body: Uint8Array = new Uint8Array(),
    extra: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<Response> {
    const headers = signRequest(
      { method, url, headers: extra, body },
      this.credentials,
      this.location.region,
      's3',
    );
    delete headers.host;
    try {
      return await fetch(url, {
        method,
        headers,
        ...(body.length > 0 ? { body: Buffer.from(body) } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new QuireError(
        'not_readable',
        `The library at ${this.location.uri} cannot be reached (${this.base}): ${withoutSecrets(describe(error), this.credentials)}`,
      );
    }
  }

  /** The object's bytes, or null when there is none. */
  async get(key: string, signal?: AbortSignal): Promise<Uint8Array | null> {
    const response = await this.send('GET', this.url(key), undefined, {}, signal);
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    await this.check(response, `read ${key}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  async exists(key: string, signal?: AbortSignal): Promise<boolean> {
    const response = await this.send('HEAD', this.url(key), undefined, {}, signal);
    if (response.status === 404) return false;
    await this.check(response, `look up ${key}`);
    await response.body?.cancel();
    return true;
  }

  async put(key: string, body: Uint8Array, signal?: AbortSignal): Promise<void> {
    const response = await this.send('PUT', this.url(key), body, {}, signal);
    await this.check(response, `write ${key}`);
    await response.body?.cancel();
  }

  /** The object with its ETag, or null when there is none. */
  async getWithTag(key: string, signal?: AbortSignal): Promise<{ body: Uint8Array; tag: string } | null> {
    const response = await this.send('GET', this.url(key), undefined, {}, signal);
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    await this.check(response, `read ${key}`);
    return { body: new Uint8Array(await response.arrayBuffer()), tag: response.headers.get('etag') ?? '' };
  }

  /**
   * Writes only if no object has the key (ifNoneMatch '*') or it still has the given ETag (ifMatch);
   * the new ETag, or null when the condition failed.
   */
  async putConditional(
    key: string,
    body: Uint8Array,
    condition: { ifNoneMatch: '*' } | { ifMatch: string },
    signal?: AbortSignal,
  ): Promise<string | null> {
    const header: Record<string, string> =
      'ifMatch' in condition ? { 'if-match': condition.ifMatch } : { 'if-none-match': '*' };
    const response = await this.send('PUT', this.url(key), body, header, signal);
    if (response.status === 412 || response.status === 409) {
      await response.body?.cancel();
      return null;
    }
    await this.check(response, `write ${key}`);
    await response.body?.cancel();
    return response.headers.get('etag') ?? '';
  }

  async delete(key: string, signal?: AbortSignal): Promise<void> {
    const response = await this.send('DELETE', this.url(key), undefined, {}, signal);
    if (response.status === 404) {
      await response.body?.cancel();
      return;
    }
    await this.check(response, `delete ${key}`);
    await response.body?.cancel();
  }

  /** Keys (relative to the prefix) that start with `under`. */
  async list(under: string, signal?: AbortSignal): Promise<string[]> {
    const prefix = [this.location.prefix, under].filter(Boolean).join('/');
    const keys: string[] = [];
    let token: string | null = null;
    do {
      const url = new URL(`${this.base.replace(/\/+$/, '')}/${awsEncode(this.location.bucket)}`);
      url.searchParams.set('list-type', '2');
      url.searchParams.set('prefix', prefix);
      if (token) url.searchParams.set('continuation-token', token);
      const response = await this.send('GET', url, undefined, {}, signal);
      await this.check(response, `list ${under}`);
      const xml = await response.text();
      for (const match of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) {
        const key = unescapeXml(match[1] ?? '');
        keys.push(this.location.prefix ? key.slice(this.location.prefix.length + 1) : key);
      }
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
        ? (/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] ?? null)
        : null;
    } while (token);
    return keys;
  }

  private async check(response: Response, what: string): Promise<void> {
    if (response.ok) return;
    const text = await response.text().catch(() => '');
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? `HTTP ${response.status}`;
    const denied =
      response.status === 403 || /AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch/.test(code);
    throw new QuireError(
      denied ? 'forbidden' : 'not_readable',
      denied
        ? `The library at ${this.location.uri} refused these credentials (${code}): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or the profile.`
        : `Could not ${what} in the library at ${this.location.uri}: ${code}.`,
    );
  }
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
