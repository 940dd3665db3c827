/**
 * The package managers' download caches, one folder per repository, kept between jobs so that the second job on a
 * repository installs from disk. One repository's set-up cannot write another's cache.
 */
export interface PackageCaches {
  /** The cache folder of the repository named by `key` (made on first use). */
  folderFor(key: string): Promise<string>;
  /** The cache folder of the repository named by `key` if an earlier job made it. */
  find(key: string): Promise<string | undefined>;
  /** Whether an earlier set-up filled this folder successfully. */
  isWarm(folder: string): Promise<boolean>;
  markWarm(folder: string): Promise<void>;
}
