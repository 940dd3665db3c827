/**
 * The in-memory tree a reply is planned against: the snapshot read before planning, overlaid with the contents
 * earlier edits of the same reply produced. Only text contents and absences are ever written into it.
 */
import type { FileSnapshot, FileState } from "./snapshot.js";

type Overlay = { readonly kind: "text"; readonly content: string } | { readonly kind: "missing" };

export class PlanTree {
  private readonly overlay = new Map<string, Overlay>();

  constructor(private readonly snapshot: FileSnapshot) {}

  get(path: string): FileState {
    const current = this.overlay.get(path) ?? this.snapshot.get(path);
    // The caller reads every path the reply names before planning; a gap is a bug, not a user error.
    if (current === undefined) throw new Error(`planEdits: the snapshot has no entry for '${path}'`);
    return current;
  }

  setText(path: string, content: string): void {
    this.overlay.set(path, { kind: "text", content });
  }

  remove(path: string): void {
    this.overlay.set(path, { kind: "missing" });
  }

  /** Final content per path that differs from the snapshot (null: delete), in the order paths were first changed. */
  changes(): Map<string, string | null> {
    const writes = new Map<string, string | null>();
    for (const [path, state] of this.overlay) {
      const original = this.snapshot.get(path);
      if (state.kind === "text") {
        if (original?.kind !== "text" || original.content !== state.content) writes.set(path, state.content);
      } else if (original?.kind !== "missing") {
        writes.set(path, null);
      }
    }
    return writes;
  }
}
