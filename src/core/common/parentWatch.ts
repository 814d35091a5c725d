/**
 * Ends a long-running process with the process that started it. A wrapper that is killed (`npx`,
 * `npm run`, a shell) does not pass the signal on: its child is adopted by init and keeps running,
 * holding its port and its memory. Polling is the portable way to notice: Node has no parent-death
 * signal, and the child of a wrapper has no IPC channel to lose.
 */
export function watchParent(onGone: () => void, intervalMs = 1000): () => void {
  const parent = process.ppid;
  // Started by init (a service manager, a container's first process): there is no wrapper to outlive.
  if (parent <= 1) return () => undefined;
  const timer = setInterval(() => {
    if (process.ppid === parent && isAlive(parent)) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  // The watch alone never keeps a process running.
  timer.unref();
  return () => clearInterval(timer);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
