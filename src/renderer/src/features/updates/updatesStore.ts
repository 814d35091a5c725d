import { create } from 'zustand';
import type { UpdateStatus } from '../../../../shared/domain/updates';
import type { ErrorInfo } from '../../../../shared/errors';
import type { CallResult } from '../../../../shared/ipc/contract';
import { quire } from '../../ipc/client';
import { errorOf } from '../../lib/callResult';

export interface UpdatesState {
  status: UpdateStatus | null;
  setEnabled: (enabled: boolean) => Promise<ErrorInfo | null>;
  check: () => Promise<ErrorInfo | null>;
  download: () => Promise<ErrorInfo | null>;
  install: () => Promise<ErrorInfo | null>;
}

export const useUpdatesStore = create<UpdatesState>(() => ({
  status: null,
  setEnabled: async (enabled) => apply(await quire['updates.setEnabled']({ enabled })),
  check: async () => apply(await quire['updates.check']({})),
  download: async () => apply(await quire['updates.download']({})),
  install: async () => errorOf(await quire['updates.install']({})),
}));

function apply(result: CallResult<UpdateStatus>): ErrorInfo | null {
  if (result.ok) useUpdatesStore.setState({ status: result.value });
  return errorOf(result);
}

export function startUpdatesSync(onConnected: (listener: () => void) => () => void): () => void {
  const stops = [
    quire.on('updates.onStatus', (status) => useUpdatesStore.setState({ status })),
    onConnected(() => void quire['updates.status']({}).then(apply)),
  ];
  return () => stops.forEach((stop) => stop());
}
