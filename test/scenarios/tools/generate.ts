/**
 * Writes the scenario corpus to test/fixtures/cases/ (run: npx tsx test/scenarios/tools/generate.ts).
 * The written folders are committed; the tests never run this script. It checks each case before writing it,
 * because a wrong expectation is worse than a missing one.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { ALL_CASES } from "./cases/index.js";
import { CATEGORIES } from "../categories.js";
import type { CaseSpec, Tree } from "./spec.js";

const CASES_DIR = fileURLToPath(new URL("../../fixtures/cases/", import.meta.url));

function fileLines(tree: Tree): Set<string> {
  const out = new Set<string>();
  for (const entry of Object.values(tree)) {
    if (typeof entry !== "string") continue;
    for (const line of entry.replace(/^\uFEFF/, "").split(/\r?\n/)) out.add(line);
  }
  return out;
}

function sameTree(a: Tree, b: Tree): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

function check(spec: CaseSpec, seen: Set<string>): void {
  const fail = (why: string): never => {
    throw new Error(`case ${spec.id}: ${why}`);
  };
  if (!/^[a-z0-9][a-z0-9-]*$/.test(spec.id)) fail("id must be kebab-case");
  if (seen.has(spec.id)) fail("duplicate id");
  seen.add(spec.id);
  if (!CATEGORIES.includes(spec.category)) fail(`unknown category ${spec.category}`);
  if (spec.note.trim() === "") fail("a note is required");
  if (Object.keys(spec.before).length === 0) fail("before/ needs at least one file (git keeps no empty folders)");
  if (spec.expect === "apply") {
    if (spec.after === undefined) fail("apply cases need after/");
    else if (sameTree(spec.before, spec.after)) fail("after/ equals before/");
    if (spec.reasons !== undefined) fail("apply cases have no reasons");
  } else {
    if (spec.after !== undefined) fail("refusal cases have no after/");
    if (spec.reasons === undefined || spec.reasons.length === 0) fail("refusal cases need reasons");
  }
  const real = fileLines(spec.before);
  for (const line of spec.hint ?? []) if (!real.has(line)) fail(`hint line is not a line of before/: ${line}`);
  if (spec.category === "already-applied" && !spec.note.includes("already"))
    fail("already-applied notes say 'already'");
}

function writeTree(root: string, tree: Tree): void {
  mkdirSync(root, { recursive: true });
  for (const [path, entry] of Object.entries(tree)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    if (typeof entry === "string") writeFileSync(target, entry, "utf8");
    else symlinkSync(entry.symlink, target);
  }
}

function writeCase(spec: CaseSpec): void {
  const dir = join(CASES_DIR, spec.id);
  const meta = {
    id: spec.id,
    category: spec.category,
    format: spec.format,
    expect: spec.expect,
    ...(spec.reasons === undefined ? {} : { reasons: spec.reasons }),
    ...(spec.hint === undefined ? {} : { hint: spec.hint }),
    note: spec.note,
    ...(spec.outside === undefined ? {} : { outside: spec.outside }),
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "case.json"), `${JSON.stringify(meta, null, 2)}\n`, "utf8");
  writeFileSync(join(dir, "reply.md"), spec.reply, "utf8");
  writeTree(join(dir, "before"), spec.before);
  if (spec.after !== undefined) writeTree(join(dir, "after"), spec.after);
}

const seen = new Set<string>();
for (const spec of ALL_CASES) check(spec, seen);
rmSync(CASES_DIR, { recursive: true, force: true });
for (const spec of ALL_CASES) writeCase(spec);

const counts = new Map<string, number>();
for (const spec of ALL_CASES) counts.set(spec.category, (counts.get(spec.category) ?? 0) + 1);
for (const category of CATEGORIES) process.stdout.write(`${category.padEnd(20)} ${counts.get(category) ?? 0}\n`);
process.stdout.write(`total                ${ALL_CASES.length}\n`);
