/**
 * Core as the Electron shell sees it: the one module src/main may import (a lint rule says so).
 */
export { createCore, type Core } from './createCore';
export { modelLaunchOptions } from './models/launchOptions';
export { guardProcess } from './common/processGuards';
export { writeJsonAtomic } from './common/atomicFile';
export type { SecretStore } from './ingestion/passwordVault';
export { useChildLauncher, type ChildHandle, type ChildLauncher } from './common/entryPoints';
export type { Updater } from './updates/updateService';
export { openPageImage } from './pages/readPageImage';
export { appMcpSharing } from './mcp/appMcpSharing';
export { APP_WRITER } from './location/dataDirWriter';
