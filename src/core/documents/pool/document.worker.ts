import { parentPort } from 'node:worker_threads';
import { toErrorInfo } from '../../../shared/errors';
import { parseDocument } from '../parseDocument';
import { PageImageStore } from '../render/pageImageStore';
import { countPdfPages } from '../pdf/countPdfPages';
import { renderPdfPages } from '../render/renderPdfPages';
import type { DocumentJob, JobRequest, JobResponse } from './protocol';

/* Runs one document job at a time for the pool; the pool terminates the thread to cancel or time out. */

async function run(job: DocumentJob) {
  if (job.type === 'parse') {
    return parseDocument(job.path, {
      kind: job.kind,
      ...(job.password === undefined ? {} : { password: job.password }),
    });
  }
  if (job.type === 'countPages') return countPdfPages(job.path, job.password);
  const { path, storeRoot, ...options } = job;
  return renderPdfPages(path, options, new PageImageStore(storeRoot));
}

const port = parentPort;
if (!port) throw new Error('document.worker must run in a worker thread');
port.on('message', (request: JobRequest) => {
  run(request.job).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies JobResponse),
    (error: unknown) =>
      port.postMessage({ id: request.id, ok: false, error: toErrorInfo(error) } satisfies JobResponse),
  );
});
