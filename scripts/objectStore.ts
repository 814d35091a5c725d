/**
 * `npm run -s object-store -- --port N [--dir DIR]`: a local S3-compatible store in the foreground, with
 * the credentials of AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Prints one line once it answers:
 * `endpoint URL bucket NAME library URI dynamodb URL`; stops on SIGTERM or Ctrl-C.
 */
import { parseArgs } from 'node:util';
import { startObjectStore } from './objectStoreServer';
import { watchParent } from '../src/core/common/parentWatch';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '9000' }, dir: { type: 'string' }, bucket: { type: 'string' } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, not "${values.port}".`);
  process.exit(1);
}
const accessKeyId = process.env.AWS_ACCESS_KEY_ID;
const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY;
if (!accessKeyId || !secretAccessKey) {
  console.error('Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: the store accepts those credentials.');
  process.exit(1);
}
const store = await startObjectStore({
  port,
  accessKeyId,
  secretAccessKey,
  ...(values.dir ? { directory: values.dir } : {}),
  ...(values.bucket ? { bucket: values.bucket } : {}),
});
console.log(
  `endpoint ${store.endpoint} bucket ${store.bucket} library ${store.library} dynamodb ${store.dynamodbEndpoint}`,
);
const stop = (): void => {
  void store.stop().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// A script that kills `npm run object-store` kills npm only (npm does not pass the signal on): a parent
// that goes away stops the store too, so none is left running.
watchParent(stop);
