/** Reading the clone's files in bulk for the loop (missing, binary and unreadable files are left out). */
import { readText } from "./apply-step.js";
import type { WorkTree } from "./deps.js";

const READ_CONCURRENCY = 64;

/** Text contents of `paths`, a few reads at a time. */
export async function readMany(tree: WorkTree, paths: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < paths.length; i += READ_CONCURRENCY) {
    const batch = paths.slice(i, i + READ_CONCURRENCY);
    const texts = await Promise.all(batch.map((p) => readText(tree, p)));
    batch.forEach((p, j) => {
      const text = texts[j];
      if (text !== undefined) out.set(p, text);
    });
  }
  return out;
}
