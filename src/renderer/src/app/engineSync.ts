import { startChatSync } from '../features/chat/chatStore';
import { startAfterLibraryShown } from '../features/library/libraryShown';
import { startLibrarySync } from '../features/library/libraryStore';
import { startModelsSync } from '../features/models/modelsStore';
import { startTraceSync } from '../features/trace/traceStore';
import { startUpdatesSync } from '../features/updates/updatesStore';
import { onEngineConnected } from '../ipc/client';
import { loadContractChecks } from '../ipc/typedApi';

/**
 * Connects every store to the engine once, outside React, so renders never subscribe twice. The
 * library goes first; the others, and the contract's checks, start once its first rows are painted
 * (libraryShown.ts).
 */
export function startEngineSync(): () => void {
  const stops = [
    startLibrarySync(onEngineConnected),
    startAfterLibraryShown(() => {
      void loadContractChecks();
      const rest = [
        startTraceSync(),
        startChatSync(onEngineConnected),
        startModelsSync(onEngineConnected),
        startUpdatesSync(onEngineConnected),
      ];
      return () => rest.forEach((stop) => stop());
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
