/**
 * The one place the bench touches patchsmith's library API (src/engine.ts), so that the speed section reads the
 * same whatever shape the engine's return values take.
 */
import type { EditResult } from "../src/core/result.js";
import type * as Engine from "../src/engine.js";
import type { ToolOutcome } from "./tools.js";

/**
 * The engine as shipped: the compiled dist/ that `npm run bench` builds first, not the sources through tsx's
 * transform (which wraps closures in helper calls and would time code nobody runs).
 */
const { applyEdits, applyReply } = (await import(new URL("../dist/engine.js", import.meta.url).href)) as typeof Engine;

const describeFailures = (results: readonly EditResult[], summary: string): string =>
  results.flatMap((r) => (r.ok ? [] : [r.reason])).join(", ") || summary || "no edit found";

/** Parse + locate + splice with the file handed over as a string: no disk, no process. */
export async function applyInMemory(reply: string, path: string, content: string): Promise<ToolOutcome> {
  const result = await applyEdits(reply, (p) => (p === path ? content : undefined));
  const output = result.files.get(path);
  if (!result.applied || result.results.some((r) => !r.ok) || typeof output !== "string") {
    return { kind: "refused", why: describeFailures(result.results, result.summary) };
  }
  return { kind: "applied", output };
}

/** The whole library path on a real tree: list, read, plan, atomic write. Undefined when everything applied. */
export async function applyOnDisk(reply: string, root: string): Promise<string | undefined> {
  const report = await applyReply(reply, { root });
  if (report.written.length > 0 && report.results.every((r) => r.ok)) return undefined;
  return describeFailures(report.results, report.summary);
}

/** A refusal's reason and message, for the refusals section: what a model would read. */
export async function refusalOf(
  reply: string,
  path: string,
  content: string,
): Promise<{ readonly reason: string; readonly message: string }> {
  const result = await applyEdits(reply, (p) => (p === path ? content : undefined));
  const first = result.results[0];
  return first === undefined || first.ok ? { reason: "applied", message: "" } : first;
}
