/**
 * Other engines' own test suites (`../shared/peer-suites`, converted from Codex, jsdiff, Aider, Roo Code and Cline;
 * measured from there, never copied into the project), run through the scenario runner like the corpus. A peer's
 * expectation that patchsmith's contract rejects on purpose is listed below with the reason and counted apart; any
 * other case that is not correct is a finding. Skipped when `../shared` is not there.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCases, runCase, type CaseRun } from "../test/scenarios/corpus.js";
import type { Section } from "./section.js";
import { markdownTable } from "./table.js";

const PEERS_DIR = fileURLToPath(new URL("../../shared/peer-suites/cases/", import.meta.url));

/** Case ids (or id prefixes ending in "*") whose peer expectation patchsmith's contract rejects, and why. */
const DESIGN_DIFFERENCES: readonly (readonly [string, string])[] = [
  ["aider-eb-replace_multiple_matches*", "the first of several equal matches is a guess: refused as ambiguous"],
  ["roo-38-*", "the first of several equal matches is a guess: refused as ambiguous"],
  ["codex-scn-010_*", "never creates or moves over an existing file"],
  ["codex-scn-011_*", "never creates or moves over an existing file"],
  ["codex-scn-015_*", "one transaction per reply: nothing is written when an edit fails"],
  ["codex-scn-014_*", "keeps a missing final newline where the edit does not touch it"],
  ["codex-tool-cli_updates_file_appends_trailing_newline", "keeps a missing final newline"],
  ["codex-tool-cli_uses_crlf_for_new_trailing_newline", "keeps a missing final newline"],
  ["codex-scn-016_*", "no placement by a line number alone"],
  ["jsdiff-15-*", "no placement by a line number alone"],
  ["jsdiff-16-*", "no placement by a line number alone"],
  ["jsdiff-17-*", "no placement by a line number alone"],
  ["jsdiff-18-*", "no placement by a line number alone"],
  ["jsdiff-19-*", "no placement by a line number alone"],
  ["jsdiff-20-*", "no placement by a line number alone"],
  ["jsdiff-60-*", "no placement by a line number alone"],
  ["jsdiff-30-*", "fuzzy at 0.90 similarity, not jsdiff's fuzz factor"],
  ["jsdiff-31-*", "fuzzy at 0.90 similarity, not jsdiff's fuzz factor"],
  ["jsdiff-32-*", "fuzzy at 0.90 similarity, not jsdiff's fuzz factor"],
  ["jsdiff-33-*", "fuzzy at 0.90 similarity, not jsdiff's fuzz factor"],
  ["jsdiff-55-*", "mixed line endings are kept as the file has them"],
  ["jsdiff-58-*", "mixed line endings are kept as the file has them"],
  ["jsdiff-59-*", "mixed line endings are kept as the file has them"],
  ["jsdiff-67-*", "refused by jsdiff itself only at fuzz 0"],
  ["jsdiff-62-*", "a final newline already as the diff leaves it is no failure (jsdiff too, above fuzz 0)"],
  ["jsdiff-63-*", "a final newline already as the diff leaves it is no failure (jsdiff too, above fuzz 0)"],
  ["aider-whole-update_files_bogus_path_prefix", "a path is written as named, never mapped onto another file"],
  ["aider-whole-update_files_earlier_filename", "a whole file is taken under a path line, not from a sentence"],
  ["aider-whole-update_files_no_filename_single_file_in_chat", "a whole file is taken under a path line only"],
  ["aider-whole-update_named_file_but_extra_unnamed_code_block", "a whole file is taken under a path line only"],
  [
    "aider-eb-replace_part_with_missing_leading_whitespace_including_blank_line",
    "removing a blank line the file lacks is refused",
  ],
  ["aider-udiff-find_diffs_dev_null", "a diff from /dev/null that removes lines contradicts itself: refused"],
  ["cline-10-*", "the replacement takes the indentation the file has where it lands"],
  ["cline-20-*", "keeps a missing final newline"],
  ["cline-34-*", "a block without its end marker may be a reply cut short: refused"],
  ["cline-35-*", "a block without its end marker may be a reply cut short: refused"],
  ["codex-unit-pure_addition_chunk_followed_by_removal", "added lines without context are placed nowhere (no guess)"],
  ["jsdiff-73-*", "where `Index:` and the `---`/`+++` headers disagree, the headers name the file"],
  ["roo-26-*", "a reply without any marker holds no edit (no-edits)"],
  ["roo-31-*", "a SEARCH nested otherwise than the file is refused, not guessed"],
];

export function designDifference(id: string): string | undefined {
  return DESIGN_DIFFERENCES.find(([pattern]) =>
    pattern.endsWith("*") ? id.startsWith(pattern.slice(0, -1)) : id === pattern,
  )?.[1];
}

interface SuiteFigures {
  readonly suite: string;
  readonly cases: number;
  readonly correct: number;
  readonly byDesign: number;
  readonly wrong: readonly string[];
  readonly other: readonly CaseRun[];
}

export async function runPeerSuites(log: (line: string) => void): Promise<SuiteFigures[] | undefined> {
  if (!existsSync(PEERS_DIR)) return undefined;
  const suites = (await readdir(PEERS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const figures: SuiteFigures[] = [];
  for (const suite of suites.sort()) {
    const cases = await loadCases(join(PEERS_DIR, suite));
    log(`peers: ${suite}, ${String(cases.length)} cases`);
    const runs = [];
    for (const c of cases) runs.push(await runCase(c));
    const notCorrect = runs.filter((r) => r.outcome !== "correct");
    figures.push({
      suite,
      cases: runs.length,
      correct: runs.length - notCorrect.length,
      byDesign: notCorrect.filter((r) => designDifference(r.id) !== undefined).length,
      wrong: notCorrect.filter((r) => r.outcome === "wrong" && designDifference(r.id) === undefined).map((r) => r.id),
      other: notCorrect.filter((r) => designDifference(r.id) === undefined),
    });
  }
  return figures;
}

export const peersSection: Section = {
  name: "peers",
  async run({ log }) {
    const figures = await runPeerSuites(log);
    if (figures === undefined) {
      return {
        markdown: "## Other engines' suites\n\nSkipped: `../shared/peer-suites` is not on this machine.\n",
        figures: null,
        targets: [],
        findings: [],
      };
    }
    const sum = (pick: (f: SuiteFigures) => number): number => figures.reduce((n, f) => n + pick(f), 0);
    const rows = figures.map((f) => [
      f.suite,
      String(f.cases),
      String(f.correct),
      String(f.byDesign),
      String(f.wrong.length),
      String(f.other.length - f.wrong.length),
    ]);
    rows.push([
      "**total**",
      String(sum((f) => f.cases)),
      String(sum((f) => f.correct)),
      String(sum((f) => f.byDesign)),
      String(sum((f) => f.wrong.length)),
      String(sum((f) => f.other.length - f.wrong.length)),
    ]);
    const others = figures.flatMap((f) => f.other);
    const markdown = [
      "## Other engines' suites",
      "",
      "Cases converted from the public test suites of Codex, jsdiff, Aider, Roo Code and Cline " +
        "(`../shared/peer-suites`). A case patchsmith handles otherwise on purpose is counted under " +
        "“by design” (the reasons are listed in bench/peers.ts).",
      "",
      markdownTable(["suite", "cases", "correct", "by design", "wrong", "other"], rows),
      "",
      ...others.map((r) => `- ${r.id}: ${r.outcome} — ${r.detail}`),
      "",
    ].join("\n");
    const wrong = sum((f) => f.wrong.length);
    return {
      markdown,
      figures,
      targets: [
        { target: "no wrong apply on the peers' suites", measured: String(wrong), met: wrong === 0 },
        {
          target: "every peer case correct or different by design",
          measured: `${String(others.length)} other`,
          met: others.length === 0,
        },
      ],
      findings: others.map((r) => `peers: ${r.id} ${r.outcome} (${r.detail})`),
    };
  },
};
