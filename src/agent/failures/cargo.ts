/**
 * `cargo test`: `test path::name ... FAILED` names the failures (with `-q`, only the `---- path::name stdout ----`
 * sections and the list under the last "failures:" do); each section holds the panic (the message, `left` and
 * `right`), up to the backtrace or the next test's section.
 */
import { tidyBlock } from "./lines.js";
import type { RunnerFormat } from "./types.js";

const FAILED = /^test (\S+) \.\.\. FAILED\s*$/;
const SECTION = /^---- (\S+) stdout ----$/;

export const cargo: RunnerFormat = {
  runner: "cargo test",
  detect: (lines) => lines.some((l) => FAILED.test(l) || SECTION.test(l)),
  parse(lines) {
    const sections = new Map<string, string>();
    for (let i = 0; i < lines.length; i++) {
      const name = SECTION.exec(lines[i]!)?.[1];
      if (name === undefined) continue;
      const block: string[] = [];
      for (let j = i + 1; j < lines.length; j++) {
        const line = lines[j]!;
        if (SECTION.test(line) || /^(failures:|stack backtrace:|note: )/.test(line)) break;
        block.push(line);
      }
      sections.set(name, tidyBlock([`---- ${name} ----`, ...block]));
    }
    const names = lines.map((l) => FAILED.exec(l)?.[1]).filter((n): n is string => n !== undefined);
    const list = lines.lastIndexOf("failures:");
    const listed = list === -1 ? [] : lines.slice(list + 1).map((l) => /^ {4}(\S+)$/.exec(l)?.[1]);
    for (const name of [...sections.keys(), ...listed]) if (name !== undefined) names.push(name);
    return [...new Set(names)].map((name) => ({ name, text: sections.get(name) ?? `test ${name} ... FAILED` }));
  },
};
