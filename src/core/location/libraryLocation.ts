import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { QuireError } from '../../shared/errors';
import type { AwsCredentials } from './awsSigning';

/**
 * Where a library's index, page images and OCR results live when they are not in the local data
 * folder: an S3-compatible bucket and prefix. `s3+ddb://` URIs commit through a DynamoDB table
 * (for stores without conditional writes); the writer's lease lives in the same place commits do.
 * Credentials are never part of a location: they come from the AWS variables or a named profile.
 */
export interface LibraryLocation {
  /** As the user wrote it, e.g. `s3://bucket/team` or `s3+ddb://bucket/team?ddbTableName=commits`. */
  uri: string;
  scheme: 's3' | 's3+ddb';
  bucket: string;
  /** Key prefix without leading or trailing slashes ('' for the bucket's root). */
  prefix: string;
  /** The DynamoDB table of commits (s3+ddb only). */
  commitTable: string | null;
  /** The S3 endpoint; null for AWS itself. QUIRE_S3_ENDPOINT when not given. */
  endpoint: string | null;
  dynamodbEndpoint: string | null;
  region: string;
  /** Plain http, allowed only for a loopback endpoint. */
  allowHttp: boolean;
  /** A named profile of the AWS credentials file; the AWS variables when null. */
  profile: string | null;
}

export interface LocationSettings {
  uri: string;
  endpoint?: string | null;
  region?: string | null;
  profile?: string | null;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Reads a library location from its URI and options; the environment fills what they leave out. */
export function parseLibraryLocation(
  settings: LocationSettings,
  env: NodeJS.ProcessEnv = process.env,
): LibraryLocation {
  let url: URL;
  try {
    url = new URL(settings.uri);
  } catch {
    throw new QuireError(
      'invalid_input',
      `--library ${settings.uri}: not a location (use s3://bucket/prefix).`,
    );
  }
  const scheme = url.protocol === 's3:' ? 's3' : url.protocol === 's3+ddb:' ? 's3+ddb' : null;
  if (!scheme || !url.hostname)
    throw new QuireError(
      'invalid_input',
      `--library ${settings.uri}: a library location is s3://bucket/prefix or s3+ddb://bucket/prefix?ddbTableName=TABLE.`,
    );
  const commitTable = url.searchParams.get('ddbTableName');
  if (scheme === 's3+ddb' && !commitTable)
    throw new QuireError('invalid_input', `--library ${settings.uri}: s3+ddb:// needs ?ddbTableName=TABLE.`);
  const endpoint = settings.endpoint ?? env.QUIRE_S3_ENDPOINT ?? env.AWS_ENDPOINT_URL_S3 ?? null;
  const dynamodbEndpoint = env.DYNAMODB_ENDPOINT ?? env.AWS_ENDPOINT_URL_DYNAMODB ?? null;
  const allowHttp = checkEndpoint(endpoint, 'S3') || checkEndpoint(dynamodbEndpoint, 'DynamoDB');
  return {
    uri: settings.uri,
    scheme,
    bucket: url.hostname,
    prefix: url.pathname.replace(/^\/+|\/+$/g, ''),
    commitTable: scheme === 's3+ddb' ? commitTable : null,
    endpoint,
    dynamodbEndpoint,
    region: settings.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    allowHttp,
    profile: settings.profile ?? null,
  };
}

/** True when the endpoint is plain http on this machine; plain http elsewhere would send keys in the clear. */
function checkEndpoint(endpoint: string | null, what: string): boolean {
  if (endpoint === null) return false;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new QuireError('invalid_input', `The ${what} endpoint ${endpoint} is not a URL.`);
  }
  if (url.protocol === 'https:') return false;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return true;
  throw new QuireError(
    'invalid_input',
    `The ${what} endpoint ${endpoint} is plain http on another machine: use https (plain http is allowed only on 127.0.0.1).`,
  );
}

/** The credentials to use: the AWS variables, or the named profile of ~/.aws/credentials. */
export async function resolveCredentials(
  location: LibraryLocation,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AwsCredentials> {
  // An explicit profile wins; then the AWS variables; then AWS_PROFILE or the default profile.
  if (location.profile === null && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY)
    return {
      accessKeyId: env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    };
  const file = env.AWS_SHARED_CREDENTIALS_FILE ?? join(homedir(), '.aws', 'credentials');
  const profile = location.profile ?? env.AWS_PROFILE ?? 'default';
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new QuireError(
      'forbidden',
      `No credentials for ${location.uri}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile in ${file}.`,
    );
  }
  const values = profileSection(text, profile);
  const accessKeyId = values.get('aws_access_key_id');
  const secretAccessKey = values.get('aws_secret_access_key');
  if (!accessKeyId || !secretAccessKey)
    throw new QuireError('forbidden', `The profile "${profile}" in ${file} has no access key.`);
  const sessionToken = values.get('aws_session_token');
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

function profileSection(text: string, profile: string): Map<string, string> {
  const values = new Map<string, string>();
  let inside = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[(.+)\]$/.exec(line)?.[1];
    if (header !== undefined) {
      inside = header.trim() === profile;
      continue;
    }
    const pair = /^([A-Za-z_]+)\s*=\s*(.*)$/.exec(line);
    if (inside && pair?.[1] && pair[2] !== undefined) values.set(pair[1].toLowerCase(), pair[2].trim());
  }
  return values;
}

/** LanceDB's storage options for this location and these credentials (kept in memory). */
export function storageOptions(
  location: LibraryLocation,
  credentials: AwsCredentials,
): Record<string, string> {
  return {
    region: location.region,
    aws_access_key_id: credentials.accessKeyId,
    aws_secret_access_key: credentials.secretAccessKey,
    ...(credentials.sessionToken ? { aws_session_token: credentials.sessionToken } : {}),
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    ...(location.dynamodbEndpoint ? { dynamodb_endpoint: location.dynamodbEndpoint } : {}),
    ...(location.allowHttp ? { allow_http: 'true' } : {}),
  };
}

/** The LanceDB URI of the index inside the location. */
export function indexUri(location: LibraryLocation): string {
  const url = new URL(location.uri);
  const path = [location.prefix, 'index'].filter(Boolean).join('/');
  return `${location.scheme}://${location.bucket}/${path}${url.search}`;
}

/** Removes anything that looks like a key from a message before the user sees it. */
export function withoutSecrets(message: string, credentials: AwsCredentials | null): string {
  let text = message;
  for (const secret of [credentials?.secretAccessKey, credentials?.sessionToken]) {
    if (secret) text = text.split(secret).join('***');
  }
  return text.replace(/(Signature=)[0-9a-f]+/g, '$1***');
}
