/*
 * Run by processPriority.test.ts in a process of its own, since lowering a process cannot be undone:
 * `thread` lowers one worker thread, `process` lowers the whole process between starting two worker
 * threads. Prints the nice value of every thread, and which thread is which, as JSON.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { lowerThisProcess, lowerThisThread } from '../../src/core/common/processPriority';

const niceOf = (tid: string) =>
  Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
const thisThread = () => readlinkSync('/proc/thread-self').split('/').at(-1)!;

if (!isMainThread) {
  const lowered = (workerData as { lower: boolean }).lower ? lowerThisThread() : null;
  parentPort!.postMessage({ tid: thisThread(), lowered });
  parentPort!.once('message', () => process.exit(0));
} else {
  const startWorker = async (lower: boolean) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { lower } });
    const report = await new Promise<{ tid: string; lowered: boolean | null }>((resolve) =>
      worker.once('message', resolve),
    );
    return { worker, ...report };
  };
  const mode = process.argv[2];
  const before = await startWorker(mode === 'thread');
  const change = mode === 'process' ? lowerThisProcess() : null;
  const after = await startWorker(false);
  const threads = Object.fromEntries(readdirSync('/proc/self/task').map((tid) => [tid, niceOf(tid)]));
  console.log(
    JSON.stringify({
      main: threads[thisThread()],
      before: threads[before.tid],
      beforeLowered: before.lowered,
      after: threads[after.tid],
      threads: Object.values(threads),
      change,
    }),
  );
  for (const { worker } of [before, after]) worker.postMessage('exit');
}
