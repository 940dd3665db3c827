/**
 * pytest: the FAILURES (and ERRORS) section has one `____ Class.test ____` section per failure, ending at the next
 * one or at the short summary, whose `FAILED path::Class::test - message` lines give the full, stable names. A
 * file that could not be collected is `ERROR path.py` (`ERROR path.py::Class` when collecting a class of it
 * failed), its section `ERROR collecting path.py`: none of its tests ran, and unless told to go on pytest then runs
 * no test at all ("Interrupted: 1 error during collection"). A failing subtest (pytest 9 runs unittest's `subTest`
 * and its own `subtests`) is `SUBFAILED(values=[5, 5]) path::Class::test`, its section `Class.test (values=[5, 5])`;
 * it is named with its parameters after the test's id, and the test has no FAILED line of its own.
 */
import { tidyBlock } from "./lines.js";
import type { FailureBlock, RunnerFormat } from "./types.js";

const SECTION = /^_{3,} (.+?) _{3,}$/;
/** A summary line's kind, then (after the parameters of a subtest) the test's id and the message. */
const SUMMARY = /^(FAILED|ERROR|SUBFAILED)(.*?) (\S+(?:::|\.py(?: - |$)).*)$/;

const RULE = /^={3,}.*={3,}$/;

/**
 * The test's id at the start of `text` (`path::Class::test[params]` or `path.py`), when nothing but pytest's
 * " - " message follows it. Parameter ids may hold spaces and " - " (`test_title[x - y-X - Y]`): they run to the
 * bracket that closes the first one.
 */
function idAt(text: string): string | undefined {
  const head = /^\S+?::[^\s[]+|^\S+\.py/.exec(text)?.[0];
  if (head === undefined) return undefined;
  let end = head.length;
  if (text[end] === "[") {
    let depth = 0;
    for (; end < text.length; end++) {
      if (text[end] === "[") depth++;
      else if (text[end] === "]" && --depth === 0) break;
    }
    if (depth !== 0) return undefined;
    end++;
  }
  const rest = text.slice(end);
  return rest.trim() === "" || rest.startsWith(" - ") ? text.slice(0, end) : undefined;
}

/** What separates the entries of pytest's long traceback. */
const ENTRY_RULE = /^(?:_ ){8,}_?$/;
/** Source lines pytest lists before the failing one (`>`) of an entry: the ones nearest it are kept. */
const KEPT_BEFORE = 3;

/**
 * The block with each traceback entry's source listing cut to the function's first line and the lines just above
 * the failing one: pytest lists every line of the function up to it (a long docstring, the whole body), which
 * pushed the `E   IndexError: …` line and its `file:line` out of the block.
 */
function withoutListings(block: readonly string[]): string[] {
  const out: string[] = [];
  let entry: string[] = [];
  const flush = (): void => {
    const failing = entry.findIndex((l) => l.startsWith(">"));
    const listed = (l: string): boolean => l.startsWith("    ") || l.trim() === "";
    // The listing: the first line indented as source, up to the failing one.
    const first = entry.findIndex((l, i) => i < failing && l.startsWith("    ") && l.trim() !== "");
    const from = Math.max(first + 1, failing - KEPT_BEFORE);
    if (first < 0 || from <= first + 1 || !entry.slice(first, failing).every(listed)) out.push(...entry);
    else out.push(...entry.slice(0, first + 1), "    …", ...entry.slice(from));
    entry = [];
  };
  for (const line of block) {
    if (ENTRY_RULE.test(line)) {
      flush();
      out.push(line);
    } else entry.push(line);
  }
  flush();
  return out;
}

export const pytest: RunnerFormat = {
  runner: "pytest",
  detect: (lines) => lines.some((l) => /^=+ (FAILURES|ERRORS) =+$/.test(l) || /short test summary info/.test(l)),
  // Interrupted by a collection error; or, with --continue-on-collection-errors, a session whose summary counts
  // only errors (every module failed to load, so no test ran).
  stoppedEarly: (lines) =>
    lines.some(
      (l) =>
        /Interrupted: \d+ errors? during collection/.test(l) ||
        /^=*\s*\d+ errors?(?:, \d+ warnings?)? in [\d.]+s\b[^,]*?=*$/.test(l.trim()),
    ),
  parse(lines) {
    const entries = lines.flatMap((l): { error: boolean; id: string; params?: string }[] => {
      const match = SUMMARY.exec(l.trimEnd());
      const id = match === null ? undefined : idAt(match[3]!);
      if (match === null || id === undefined || (match[1] !== "SUBFAILED" && match[2] !== "")) return [];
      // A subtest is named by the parameters pytest heads its section with.
      if (match[1] === "SUBFAILED") return [{ error: false, id, params: match[2]!.trim() }];
      return [{ error: match[1] === "ERROR", id }];
    });
    const sections = new Map<string, string>();
    for (let i = 0; i < lines.length; i++) {
      const title = SECTION.exec(lines[i]!)?.[1];
      if (title === undefined) continue;
      const block: string[] = [];
      for (let j = i + 1; j < lines.length && !SECTION.test(lines[j]!) && !RULE.test(lines[j]!); j++)
        block.push(lines[j]!);
      sections.set(title, tidyBlock([`___ ${title} ___`, ...withoutListings(block)]));
    }
    // "CalcTest.test_mean" heads the section of "tests/test_calc.py::CalcTest::test_mean".
    const sectionOf = (id: string): string | undefined => {
      const dotted = id.split("::").slice(1).join(".");
      return (
        sections.get(dotted) ?? [...sections].find(([title]) => title.endsWith(dotted) || dotted.endsWith(title))?.[1]
      );
    };
    if (entries.length === 0) return [...sections].map(([name, text]) => ({ name, text }));
    return entries.map(({ error, id, params }): FailureBlock => {
      const file = id.split("::")[0]!;
      const collecting = error ? sections.get(`ERROR collecting ${file}`) : undefined;
      if (params !== undefined) {
        const name = `${id} ${params}`;
        return { name, text: sectionOf(name) ?? name, file };
      }
      return {
        name: id,
        text: collecting ?? sectionOf(id) ?? id,
        file,
        ...(id.includes("::") && collecting === undefined ? {} : { notRun: true }),
      };
    });
  },
};
