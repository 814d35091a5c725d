import { startChatSync } from '../features/chat/chatStore';
import { startLibrarySync } from '../features/library/libraryStore';
import { startModelsSync } from '../features/models/modelsStore';
import { startTraceSync } from '../features/trace/traceStore';
import { startUpdatesSync } from '../features/updates/updatesStore';
import { onEngineConnected } from '../ipc/client';

/** Connects every store to the engine once, outside React, so renders never subscribe twice. */
export function startEngineSync(): () => void {
  const stops = [
    startLibrarySync(onEngineConnected),
    startTraceSync(),
    startChatSync(onEngineConnected),
    startModelsSync(onEngineConnected),
    startUpdatesSync(onEngineConnected),
  ];
  return () => stops.forEach((stop) => stop());
}
