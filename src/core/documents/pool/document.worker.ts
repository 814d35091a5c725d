import { parentPort } from 'node:worker_threads';
import { toErrorInfo } from '../../../shared/errors';
import { parseDocument } from '../parseDocument';
import { PageImageStore } from '../render/pageImageStore';
import { countPdfPages, renderPdfPages } from '../render/renderPdfPages';
import { laidOutPage } from '../render/laidOutPages';
import { renderLaidOutPages } from '../render/renderLaidOutPages';
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
  if (job.type === 'pageText') return laidOutPage(job.path, job.kind, job.page);
  const { path, storeRoot, kind, ...options } = job;
  const store = new PageImageStore(storeRoot);
  if (kind !== 'pdf') return renderLaidOutPages(path, { kind, ...options }, store);
  return renderPdfPages(path, options, store);
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
