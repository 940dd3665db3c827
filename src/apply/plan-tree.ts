/**
 * The in-memory tree a reply is planned against: the snapshot read before planning, overlaid with the contents
 * earlier edits of the same reply produced. Only text contents and absences are ever written into it.
 *
 * Text is held as a `TextBody`: the string, the lines being edited (core/lines/doc.ts), or both, each computed at
 * most once. Fifty hunks on one 10,000-line file must not parse and serialise the whole file fifty times.
 */
import { LineDoc } from "../core/lines/doc.js";
import type { FileSnapshot, FileState } from "./snapshot.js";

/** A file's text as a string, as an editable document, or both; each form is computed on first use and kept. */
export class TextBody {
  private constructor(
    private text: string | undefined,
    private lines: LineDoc | undefined,
    private readonly expected: readonly string[] = [],
  ) {}

  /** `expected`: lines edits will look for in this text (see LineDoc.expect). */
  static ofText(text: string, expected?: readonly string[]): TextBody {
    return new TextBody(text, undefined, expected);
  }

  static ofDoc(doc: LineDoc): TextBody {
    return new TextBody(undefined, doc);
  }

  get content(): string {
    return (this.text ??= this.lines!.text);
  }

  get doc(): LineDoc {
    if (this.lines === undefined) {
      this.lines = LineDoc.fromText(this.text!, this.expected);
    }
    return this.lines;
  }
}

type Overlay = { readonly kind: "text"; readonly body: TextBody } | { readonly kind: "missing" };

/** What a step sees of a path: the text body, or the non-text state that decides its refusal. */
export type TreeEntry = { readonly kind: "text"; readonly body: TextBody } | Exclude<FileState, { kind: "text" }>;

export class PlanTree {
  private readonly overlay = new Map<string, Overlay>();
  private readonly originals = new Map<string, TextBody>();
  /** Whether a file is executable, where an edit said so (or moved a file whose mode is known). */
  private readonly modes = new Map<string, boolean>();

  /** `expected`: per path, the lines the reply's edits will look for in the snapshot's text. */
  constructor(
    private readonly snapshot: FileSnapshot,
    private readonly expected: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {}

  entry(path: string): TreeEntry {
    const current = this.overlay.get(path);
    if (current !== undefined) return current;
    const original = this.snapshot.get(path);
    // The caller reads every path the reply names before planning; a gap is a bug, not a user error.
    if (original === undefined) throw new Error(`planEdits: the snapshot has no entry for '${path}'`);
    if (original.kind !== "text") return original;
    let body = this.originals.get(path);
    if (body === undefined) {
      body = TextBody.ofText(original.content, this.expected.get(path));
      this.originals.set(path, body);
    }
    return { kind: "text", body };
  }

  /** The state as the steps' refusal checks read it (text content is serialised if needed). */
  get(path: string): FileState {
    const entry = this.entry(path);
    return entry.kind === "text" ? { kind: "text", content: entry.body.content } : entry;
  }

  setBody(path: string, body: TextBody): void {
    this.overlay.set(path, { kind: "text", body });
  }

  setText(path: string, content: string): void {
    this.setBody(path, TextBody.ofText(content));
  }

  remove(path: string): void {
    this.overlay.set(path, { kind: "missing" });
    this.modes.delete(path);
  }

  setExecutable(path: string, executable: boolean): void {
    this.modes.set(path, executable);
  }

  /** Whether the file at `path` is executable now: undefined when nothing says (a reader that gives no modes). */
  executableOf(path: string): boolean | undefined {
    const set = this.modes.get(path);
    if (set !== undefined) return set;
    const original = this.snapshot.get(path);
    // A file the reply made is a plain file unless an edit said otherwise.
    if (this.overlay.has(path) && original?.kind !== "text") return false;
    return original?.kind === "text" ? original.executable : undefined;
  }

  /**
   * Per path whose mode the reply changed, whether it ends executable: a new file made executable, or one whose
   * bit differs from the snapshot's (or the snapshot did not say). A removed path has no entry.
   */
  modeChanges(): Map<string, boolean> {
    const changed = new Map<string, boolean>();
    for (const [path, executable] of this.modes) {
      const original = this.snapshot.get(path);
      const before = original?.kind === "text" ? original.executable : false;
      if (executable !== before) changed.set(path, executable);
    }
    return changed;
  }

  /** Final content per path that differs from the snapshot (null: delete), in the order paths were first changed. */
  changes(): Map<string, string | null> {
    const writes = new Map<string, string | null>();
    for (const [path, state] of this.overlay) {
      const original = this.snapshot.get(path);
      if (state.kind === "text") {
        const content = state.body.content;
        if (original?.kind !== "text" || original.content !== content) writes.set(path, content);
      } else if (original?.kind !== "missing") {
        writes.set(path, null);
      }
    }
    return writes;
  }
}
