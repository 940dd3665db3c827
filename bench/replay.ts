/**
 * Replay: the changes of real commits (replay-cases.ts) applied to the file as it was BACK commits before, as the
 * commit's own unified diff, as SEARCH/REPLACE blocks and as an apply_patch envelope, from the same local mirrors
 * as the context section (no third-party code is committed). `git merge-file` of the older file, the commit's
 * parent and the commit is the judge: where it merges cleanly, patchsmith's result should be its result (the
 * final newline aside for the dialects that cannot state it); where it conflicts, the change met lines that
 * changed since and nothing is judged. A result that differs from a clean merge is listed for a person to read: an
 * indentation written in the file's style shows there, and so would a wrong place.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { applyEdits } from "../src/engine.js";
import { mirrorName, mirrorsFrom, unreadableMirror } from "./context.js";
import { applyPatchOf, MODEL_FAULTS, replayCommits, searchReplaceOf, type ModelFault } from "./replay-cases.js";
import type { Section } from "./section.js";
import { markdownTable } from "./table.js";

const exec = promisify(execFile);
const BUFFER = { maxBuffer: 64 * 1024 * 1024 } as const;

/** How many commits back the file is taken from; and how many commits per repository are replayed. */
const BACK = 20;
const PER_REPO = 120;
/** Context lines of the blocks a model elides: enough that most hunks hold a run of three to stand for. */
const ELIDED_CONTEXT = 8;

const DIALECTS = ["udiff", "editblock", "patch"] as const;
type Dialect = (typeof DIALECTS)[number];

const OUTCOMES = [
  "as merged",
  "differs",
  "refused, merge clean",
  "applied, merge conflicts",
  "refused, conflicts",
] as const;
type Outcome = (typeof OUTCOMES)[number];

const FAULT_OUTCOMES = ["right", "whitespace only", "refused", "wrong", "error", "applied, merge conflicts"] as const;

interface Replayed {
  readonly repo: string;
  readonly id: string;
  readonly dialect: Dialect;
  readonly outcome: Outcome | "error";
  readonly error?: string;
}

async function show(mirror: string, rev: string, path: string): Promise<string | undefined> {
  try {
    return (await exec("git", ["-C", mirror, "show", `${rev}:${path}`], BUFFER)).stdout;
  } catch {
    return undefined;
  }
}

/** The three-way merge of `ours` with the change from `base` to `theirs`; clean when git reports no conflict. */
async function merge(
  dir: string,
  ours: string,
  base: string,
  theirs: string,
): Promise<{ text: string; clean: boolean }> {
  const files = ["ours", "base", "theirs"].map((name) => join(dir, name));
  [ours, base, theirs].forEach((text, i) => {
    writeFileSync(files[i]!, text);
  });
  try {
    return { text: (await exec("git", ["merge-file", "-p", ...files], BUFFER)).stdout, clean: true };
  } catch (error) {
    const { stdout, code } = error as { stdout?: string; code?: number };
    if (typeof code !== "number" || code < 1) throw error;
    return { text: stdout ?? "", clean: false };
  }
}

const withoutFinalNewline = (text: string): string => text.replace(/\r?\n$/, "");

/**
 * A commit's hunks as SEARCH/REPLACE blocks with one model fault, applied to the commit's parent (the result must
 * be the commit's file) or to the older file (the result must be the clean merge; not judged where it conflicts).
 */
interface Faulted {
  readonly id: string;
  readonly fault: ModelFault;
  readonly on: "parent" | "older";
  readonly outcome: (typeof FAULT_OUTCOMES)[number];
}

async function applyFaulted(
  id: string,
  path: string,
  diff: string,
  start: { readonly on: Faulted["on"]; readonly text: string },
  expected: string | undefined,
  fault: ModelFault,
): Promise<Faulted> {
  const { on } = start;
  try {
    const reply = searchReplaceOf(path, diff, fault);
    const result = await applyEdits(reply, (p) => (p === path ? start.text : undefined), { knownPaths: [path] });
    if (result.results.length === 0 || !result.results.every((r) => r.ok)) {
      return { id, fault, on, outcome: "refused" };
    }
    if (expected === undefined) return { id, fault, on, outcome: "applied, merge conflicts" };
    const after = withoutFinalNewline(result.files.get(path) ?? start.text);
    if (after === withoutFinalNewline(expected)) return { id, fault, on, outcome: "right" };
    // Added lines written in the file's indentation style differ from the commit in whitespace only.
    const trimmed = (text: string): string =>
      text
        .split("\n")
        .map((l) => l.trim())
        .join("\n");
    return {
      id,
      fault,
      on,
      outcome: trimmed(after) === trimmed(withoutFinalNewline(expected)) ? "whitespace only" : "wrong",
    };
  } catch {
    return { id, fault, on, outcome: "error" };
  }
}

async function replayRepo(
  mirror: string,
  dir: string,
  log: (line: string) => void,
): Promise<{ results: Replayed[]; faulted: Faulted[] }> {
  const repo = mirrorName(mirror);
  const history = (
    await exec("git", ["-C", mirror, "log", "--no-merges", "--format=%H", "--numstat", "-n3000"], BUFFER)
  ).stdout;
  const results: Replayed[] = [];
  const faulted: Faulted[] = [];
  let replayed = 0;
  for (const { sha, path } of replayCommits(history)) {
    if (replayed >= PER_REPO) break;
    const [base, theirs, ours] = await Promise.all([
      show(mirror, `${sha}~1`, path),
      show(mirror, sha, path),
      show(mirror, `${sha}~${String(BACK + 1)}`, path),
    ]);
    // The file must have changed since (else this is the commit itself) and be text.
    if (base === undefined || theirs === undefined || ours === undefined || ours === base || ours.includes("\0")) {
      continue;
    }
    replayed++;
    const diff = (await exec("git", ["-C", mirror, "diff", `${sha}~1`, sha, "--", path], BUFFER)).stdout;
    const fault = MODEL_FAULTS[replayed % MODEL_FAULTS.length]!;
    // An elision stands for lines the model did not quote: the blocks then quote more context, as a model does.
    const quoted =
      fault === "elided"
        ? (
            await exec(
              "git",
              ["-C", mirror, "diff", `-U${String(ELIDED_CONTEXT)}`, `${sha}~1`, sha, "--", path],
              BUFFER,
            )
          ).stdout
        : diff;
    const merged = await merge(dir, ours, base, theirs);
    const faultId = `${repo}@${sha.slice(0, 10)}:${path} (${fault}`;
    faulted.push(
      await applyFaulted(`${faultId})`, path, quoted, { on: "parent", text: base }, theirs, fault),
      await applyFaulted(
        `${faultId}, on the older file)`,
        path,
        quoted,
        { on: "older", text: ours },
        merged.clean ? merged.text : undefined,
        fault,
      ),
    );
    for (const dialect of DIALECTS) {
      const id = `${repo}@${sha.slice(0, 10)}:${path} (${dialect})`;
      const reply =
        dialect === "udiff"
          ? "```diff\n" + diff + "```\n"
          : dialect === "editblock"
            ? searchReplaceOf(path, diff)
            : applyPatchOf(path, diff);
      try {
        const result = await applyEdits(reply, (p) => (p === path ? ours : undefined), { knownPaths: [path] });
        const applied = result.results.length > 0 && result.results.every((r) => r.ok);
        const after = result.files.get(path) ?? ours;
        const same =
          dialect === "udiff" ? after === merged.text : withoutFinalNewline(after) === withoutFinalNewline(merged.text);
        const outcome: Outcome = merged.clean
          ? applied
            ? same
              ? "as merged"
              : "differs"
            : "refused, merge clean"
          : applied
            ? "applied, merge conflicts"
            : "refused, conflicts";
        results.push({ repo, id, dialect, outcome });
      } catch (error) {
        results.push({ repo, id, dialect, outcome: "error", error: String(error) });
      }
    }
  }
  log(`replay: ${repo}, ${String(replayed)} commits`);
  return { results, faulted };
}

export const replaySection: Section = {
  name: "replay",
  async run({ log }) {
    const mirrors = mirrorsFrom(process.env);
    if (mirrors.length === 0) {
      const note = "No repository mirrors (set PATCHSMITH_BENCH_MIRRORS to git directories): nothing measured.";
      return { markdown: `## Replay\n\n${note}\n`, figures: { skipped: true }, targets: [], findings: [] };
    }
    const dir = mkdtempSync(join(tmpdir(), "patchsmith-bench-replay-"));
    const results: Replayed[] = [];
    const faulted: Faulted[] = [];
    // A mirror git cannot read (a partial snapshot) is left out and named, not the end of the section.
    const unreadable: string[] = [];
    try {
      for (const mirror of mirrors) {
        const replayed = await replayRepo(mirror, dir, log).catch((error: unknown) => {
          unreadable.push(unreadableMirror(mirror, error));
          return undefined;
        });
        if (replayed === undefined) continue;
        results.push(...replayed.results);
        faulted.push(...replayed.faulted);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const count = (list: readonly Replayed[], outcome: Outcome | "error"): number =>
      list.filter((r) => r.outcome === outcome).length;
    const rows = DIALECTS.map((dialect) => {
      const own = results.filter((r) => r.dialect === dialect);
      return [dialect, String(own.length), ...OUTCOMES.map((o) => String(count(own, o))), String(count(own, "error"))];
    });
    const errors = results.filter((r) => r.outcome === "error");
    const differs = results.filter((r) => r.outcome === "differs");
    const repos = new Set(results.map((r) => r.repo)).size;
    const faultRows = (on: Faulted["on"]) =>
      MODEL_FAULTS.map((fault) => {
        const own = faulted.filter((f) => f.fault === fault && f.on === on);
        return [
          fault,
          String(own.length),
          ...FAULT_OUTCOMES.filter((o) => on === "older" || o !== "applied, merge conflicts").map((o) =>
            String(own.filter((f) => f.outcome === o).length),
          ),
        ];
      });
    const broken = faulted.filter((f) => f.outcome === "wrong" || f.outcome === "error");
    return {
      markdown: [
        "## Replay: real commits applied to an older file",
        "",
        `The last ${String(PER_REPO)} commits per repository (${String(repos)} repositories) that change one text ` +
          `file by at most 40 lines, applied to that file as it was ${String(BACK)} commits before; judged by ` +
          "`git merge-file` (older file, parent, commit).",
        "",
        markdownTable(["reply", "cases", ...OUTCOMES, "errors"], rows),
        "",
        ...(differs.length > 0
          ? ["Applied, but not as the clean merge (read each):", "", ...differs.map((r) => `- ${r.id}`), ""]
          : []),
        "The same commits' hunks as SEARCH/REPLACE blocks with one model fault each (in turn), applied to the " +
          "commit's parent: the result must be the commit's file. A fault that finds nothing to change in a " +
          "commit's hunks leaves them as they are (an elision needs three unchanged lines between two changes; a " +
          "cut line, a context line of more than 40 characters).",
        "",
        markdownTable(
          ["fault", "cases", ...FAULT_OUTCOMES.filter((o) => o !== "applied, merge conflicts")],
          faultRows("parent"),
        ),
        "",
        "The same faulted blocks applied to the older file: the result must be the clean merge; where the merge " +
          "conflicts, an apply is not judged.",
        "",
        markdownTable(["fault", "cases", ...FAULT_OUTCOMES], faultRows("older")),
        "",
      ].join("\n"),
      figures: { back: BACK, perRepo: PER_REPO, results, faulted },
      targets: [
        { target: "replay: no engine error", measured: String(errors.length), met: errors.length === 0 },
        {
          target: "replay with model faults: 0 wrong applies",
          measured: String(broken.length),
          met: broken.length === 0,
        },
      ],
      findings: [
        ...errors.map((r) => `replay: ${r.id} threw ${r.error ?? ""}`),
        ...broken.map((f) => `replay with a model fault: ${f.id} ${f.outcome}`),
        ...unreadable.map((m) => `replay: mirror left out, git cannot read it (${m})`),
      ],
    };
  },
};
