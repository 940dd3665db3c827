/**
 * Renders the edit dialects the way models write them, so every reply in the corpus is plausible model output.
 * Diff dialects are computed from the real before/after texts (with `diff`), then optionally bent the ways models
 * bend them (wrong numbers, bare headers, missing blank-context spaces).
 */
import { structuredPatch } from "diff";

const LANGS: Readonly<Record<string, string>> = {
  ts: "typescript",
  py: "python",
  go: "go",
  rs: "rust",
  java: "java",
  yaml: "yaml",
  yml: "yaml",
  md: "markdown",
  json: "json",
  sh: "bash",
};

export function langOf(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  if (base === "Makefile") return "makefile";
  const ext = base.includes(".") ? base.slice(base.lastIndexOf(".") + 1) : "";
  return LANGS[ext] ?? "";
}

/** How the path of a block is written. */
export type PathStyle =
  "plain" | "backticks" | "bold" | "bold-backticks" | "heading" | "dot" | "label" | "inside" | "colon" | "none";

function pathLine(path: string, style: PathStyle): string {
  switch (style) {
    case "plain":
    case "inside":
      return path;
    case "backticks":
      return `\`${path}\``;
    case "bold":
      return `**${path}**`;
    case "bold-backticks":
      return `**\`${path}\`**`;
    case "heading":
      return `### ${path}`;
    case "dot":
      return `./${path}`;
    case "label":
      return `File: ${path}`;
    case "colon":
      return `${path}:`;
    case "none":
      return "";
  }
}

const body = (text: string): string => (text === "" ? "" : `${text}\n`);

export interface BlockOptions {
  readonly style?: PathStyle;
  readonly lang?: string;
}

/** One SEARCH/REPLACE block. `search`/`replace` are line texts joined with LF, without a final newline. */
export function editblock(path: string, search: string, replace: string, opts: BlockOptions = {}): string {
  const style = opts.style ?? "plain";
  const lang = opts.lang ?? langOf(path);
  const markers = `<<<<<<< SEARCH\n${body(search)}=======\n${body(replace)}>>>>>>> REPLACE\n\`\`\``;
  if (style === "inside") return `\`\`\`${lang}\n${path}\n${markers}`;
  const head = pathLine(path, style);
  return `${head === "" ? "" : `${head}\n`}\`\`\`${lang}\n${markers}`;
}

/** A whole-file block: the path line, then the fenced content. */
export function wholeFile(path: string, content: string, opts: BlockOptions = {}): string {
  const style = opts.style ?? "plain";
  const lang = opts.lang ?? langOf(path);
  const text = content.endsWith("\n") ? content : `${content}\n`;
  if (style === "inside") return `\`\`\`${lang}\n${path}\n${text}\`\`\``;
  return `${pathLine(path, style)}\n\`\`\`${lang}\n${text}\`\`\``;
}

const normalise = (text: string): string => text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");

export interface UdiffOptions {
  readonly context?: number;
  /** Prefix with `diff --git` and a/ b/ paths (the default), or plain `--- path` headers. */
  readonly git?: boolean;
  /** "ok": real numbers; "bare": `@@ @@`; "dots": `@@ ... @@`; "shift": start lines moved by shiftBy. */
  readonly numbers?: "ok" | "bare" | "dots" | "shift";
  readonly shiftBy?: number;
  /** Line counts off by a few, as models miscount. */
  readonly wrongCounts?: boolean;
  /** Blank context lines written as empty lines (no leading space). */
  readonly blankNoSpace?: boolean;
  /** Drop `\ No newline at end of file` markers (models usually forget them). */
  readonly dropNoNewline?: boolean;
  /** Text after the second `@@` (git's function context). */
  readonly section?: string;
}

/** The hunks of a unified diff from `before` to `after` (both whole files). */
export function udiffHunks(before: string, after: string, opts: UdiffOptions = {}): string {
  const patch = structuredPatch("a", "b", normalise(before), normalise(after), undefined, undefined, {
    context: opts.context ?? 3,
  });
  const out: string[] = [];
  for (const hunk of patch.hunks) {
    const numbers = opts.numbers ?? "ok";
    const shiftBy = numbers === "shift" ? (opts.shiftBy ?? 17) : 0;
    const extra = opts.wrongCounts === true ? 2 : 0;
    const section = opts.section === undefined ? "" : ` ${opts.section}`;
    if (numbers === "bare") out.push(`@@ @@${section}`);
    else if (numbers === "dots") out.push(`@@ ... @@${section}`);
    else {
      const oldStart = Math.max(1, hunk.oldStart + shiftBy);
      const newStart = Math.max(1, hunk.newStart + shiftBy);
      out.push(`@@ -${oldStart},${hunk.oldLines + extra} +${newStart},${hunk.newLines + extra} @@${section}`);
    }
    for (const line of hunk.lines) {
      if (line.startsWith("\\") && opts.dropNoNewline === true) continue;
      out.push(line === " " && opts.blankNoSpace === true ? "" : line);
    }
  }
  return out.join("\n");
}

/** A one-file unified diff (headers + hunks), not fenced. */
export function udiff(path: string, before: string, after: string, opts: UdiffOptions = {}): string {
  const hunks = udiffHunks(before, after, opts);
  return opts.git === false
    ? `--- ${path}\n+++ ${path}\n${hunks}`
    : `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n${hunks}`;
}

export function udiffCreate(path: string, content: string): string {
  const added = normalise(content).replace(/\n$/, "").split("\n");
  return [
    `diff --git a/${path} b/${path}`,
    "new file mode 100644",
    "--- /dev/null",
    `+++ b/${path}`,
    `@@ -0,0 +1,${added.length} @@`,
    ...added.map((l) => `+${l}`),
  ].join("\n");
}

export function udiffDelete(path: string, content: string): string {
  const removed = normalise(content).replace(/\n$/, "").split("\n");
  return [
    `diff --git a/${path} b/${path}`,
    "deleted file mode 100644",
    `--- a/${path}`,
    "+++ /dev/null",
    `@@ -1,${removed.length} +0,0 @@`,
    ...removed.map((l) => `-${l}`),
  ].join("\n");
}

export const fence = (text: string, lang = "diff"): string => `\`\`\`${lang}\n${text}\n\`\`\``;

export interface PatchOptions {
  readonly context?: number;
  /** `@@ anchor` text per chunk (undefined: a bare `@@`). */
  readonly anchors?: readonly (string | undefined)[];
  readonly moveTo?: string;
  /** Mark the last chunk with `*** End of File`. */
  readonly endOfFile?: boolean;
}

/** An apply_patch `*** Update File` section computed from the real texts. */
export function patchUpdate(path: string, before: string, after: string, opts: PatchOptions = {}): string {
  const patch = structuredPatch("a", "b", normalise(before), normalise(after), undefined, undefined, {
    context: opts.context ?? 3,
  });
  const out = [`*** Update File: ${path}`];
  if (opts.moveTo !== undefined) out.push(`*** Move to: ${opts.moveTo}`);
  patch.hunks.forEach((hunk, i) => {
    const anchor = opts.anchors?.[i];
    out.push(anchor === undefined ? "@@" : `@@ ${anchor}`);
    for (const line of hunk.lines) if (!line.startsWith("\\")) out.push(line);
  });
  if (opts.endOfFile === true) out.push("*** End of File");
  return out.join("\n");
}

export function patchAdd(path: string, content: string): string {
  const added = normalise(content).replace(/\n$/, "").split("\n");
  return [`*** Add File: ${path}`, ...added.map((l) => `+${l}`)].join("\n");
}

export const patchDelete = (path: string): string => `*** Delete File: ${path}`;

/** A whole apply_patch envelope around sections. */
export const patchDoc = (...sections: string[]): string => ["*** Begin Patch", ...sections, "*** End Patch"].join("\n");

/** A reply: prose and blocks separated by blank lines, ending with a newline. */
export const reply = (...parts: string[]): string => `${parts.join("\n\n")}\n`;
