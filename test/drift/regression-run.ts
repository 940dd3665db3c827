/**
 * What the drift regression tests (regressions*.test.ts) share. Each test is an engine bug found by the drift
 * harness, reduced to a minimal reply over a small file. A new one is added as `test.fails` while the bug stands
 * (vitest then reports it as unexpectedly passing once the engine is fixed, and the marker goes). Each test states
 * what a correct engine may do (land as intended, or refuse).
 */
import { applyEdits } from "../../src/engine.js";

/** The file's new text after the reply, "<deleted>", or undefined when nothing was written (a refusal). */
export async function run(path: string, before: string, reply: string): Promise<string | undefined> {
  const result = await applyEdits(reply, (p) => (p === path ? before : undefined), { knownPaths: [path] });
  const after = result.files.get(path);
  return after === null ? "<deleted>" : after;
}

/** Either the intended text or a refusal (undefined: nothing written). */
export const landsOrRefuses = (after: string | undefined, intended: string): boolean =>
  after === undefined || after === intended;
