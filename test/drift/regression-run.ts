/** The two helpers every drift regression test uses: apply a reply to one file, and the "land or refuse" verdict. */
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
