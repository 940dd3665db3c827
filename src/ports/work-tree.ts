/** A clone's working tree as the edit engine sees it (adapters/fs-tree.ts implements it on disk). */
import type { FileState } from "../apply/snapshot.js";

export type WriteResult =
  | { readonly ok: true; readonly written: readonly string[] }
  | { readonly ok: false; readonly path: string; readonly message: string; readonly rolledBack: boolean };

export interface WorkTree {
  read(relPath: string): Promise<FileState>;
  /**
   * Writes every file (null: delete), atomically per file, confined to the tree; `modes` sets the executable bit
   * of the paths it names (the others keep their mode).
   */
  commit(writes: ReadonlyMap<string, string | null>, modes?: ReadonlyMap<string, boolean>): Promise<WriteResult>;
}
