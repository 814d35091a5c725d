/**
 * A local S3-compatible store for tests, benches and people trying a team library: s3rver (npm) keeps
 * the objects, dynalite (npm, DynamoDB on LevelDB) keeps LanceDB's commits. s3rver answers a second
 * `If-None-Match: *` PUT of the same key with 200 (it does not honour the condition), so commits go
 * through `s3+ddb://`, whose conditional writes dynalite does honour.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitTable } from '../src/core/location/commitTable';
import { parseLibraryLocation } from '../src/core/location/libraryLocation';

const require = createRequire(import.meta.url);

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
interface AccountRegistry {
  DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void };
}
type DynaliteFactory = (options: Record<string, unknown>) => Server;

export interface ObjectStoreOptions {
  /** Port of the S3 endpoint (0: any free one). The commit table listens on another free port. */
  port?: number;
  /** Port of the commit table (0: any free one), e.g. to restart a store where it was. */
  dynamodbPort?: number;
  bucket?: string;
  /** Where objects and commits are kept; a fresh temporary folder (removed on stop) by default. */
  directory?: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface RunningObjectStore {
  endpoint: string;
  dynamodbEndpoint: string;
  bucket: string;
  /** The library URI to use: objects in the bucket, commits in the table. */
  library: string;
  /** Requests each server has answered so far. */
  requests(): { s3: number; dynamodb: number };
  stop(): Promise<void>;
}

export const COMMIT_TABLE = 'quire-commits';

export async function startObjectStore(options: ObjectStoreOptions): Promise<RunningObjectStore> {
  const bucket = options.bucket ?? 'quire';
  const ownDirectory = options.directory === undefined;
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'quire-object-store-')));
  const S3rver = require('s3rver') as S3rverClass;
  // s3rver knows one account; the caller's key id joins it (s3rver checks the key id, not the V4 signature).
  (require('s3rver/lib/models/account') as AccountRegistry).DUMMY_ACCOUNT.createKeyPair(
    options.accessKeyId,
    options.secretAccessKey,
  );
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory: join(directory, 'objects'),
    configureBuckets: [{ name: bucket }],
  });
  const address = await s3.run();
  let s3Requests = 0;
  s3.httpServer.on('request', () => s3Requests++);
  const dynalite = require('dynalite') as DynaliteFactory;
  const ddb = dynalite({
    path: join(directory, 'commits'),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  await new Promise<void>((resolve, reject) => {
    ddb.once('error', reject);
    ddb.listen(options.dynamodbPort ?? 0, '127.0.0.1', () => resolve());
  });
  let ddbRequests = 0;
  ddb.on('request', () => ddbRequests++);
  const endpoint = `http://127.0.0.1:${address.port}`;
  const dynamodbEndpoint = `http://127.0.0.1:${(ddb.address() as AddressInfo).port}`;
  const library = `s3+ddb://${bucket}/team?ddbTableName=${COMMIT_TABLE}`;
  const location = parseLibraryLocation(
    { uri: library, endpoint },
    { ...process.env, DYNAMODB_ENDPOINT: dynamodbEndpoint },
  );
  await new CommitTable(location, {
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
  }).ensure();
  let stopped = false;
  return {
    endpoint,
    dynamodbEndpoint,
    bucket,
    library,
    requests: () => ({ s3: s3Requests, dynamodb: ddbRequests }),
    async stop() {
      if (stopped) return;
      stopped = true;
      s3.httpServer.closeAllConnections();
      ddb.closeAllConnections();
      await s3.close().catch(() => undefined);
      await new Promise<void>((resolve) => ddb.close(() => resolve()));
      if (ownDirectory) await rm(directory, { recursive: true, force: true });
    },
  };
}
