import { create } from 'zustand';
import type { Collection } from '../../../../shared/domain/scope';
import type { ErrorInfo } from '../../../../shared/errors';
import { quire } from '../../ipc/client';

/** The library's collections (saved scopes), as the engine keeps them; every change reloads the list. */
export interface CollectionsState {
  collections: Collection[];
  load: () => Promise<ErrorInfo | null>;
  create: (name: string) => Promise<ErrorInfo | null>;
  rename: (name: string, to: string) => Promise<ErrorInfo | null>;
  remove: (name: string) => Promise<ErrorInfo | null>;
  addPaths: (name: string, paths: string[]) => Promise<ErrorInfo | null>;
  removePaths: (name: string, paths: string[]) => Promise<ErrorInfo | null>;
}

export const useCollectionsStore = create<CollectionsState>((set, get) => {
  const after = async (result: { ok: boolean; error?: ErrorInfo }): Promise<ErrorInfo | null> => {
    if (!result.ok) return result.error ?? null;
    return get().load();
  };
  return {
    collections: [],
    load: async () => {
      const result = await quire['collections.list']({});
      if (!result.ok) return result.error;
      set({ collections: result.value });
      return null;
    },
    create: async (name) => after(await quire['collections.create']({ name })),
    rename: async (name, to) => after(await quire['collections.rename']({ name, to })),
    remove: async (name) => after(await quire['collections.delete']({ name })),
    addPaths: async (name, paths) => after(await quire['collections.add']({ name, paths })),
    removePaths: async (name, paths) => after(await quire['collections.remove']({ name, paths })),
  };
});
