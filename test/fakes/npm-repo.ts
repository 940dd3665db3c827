/**
 * A repository whose tests need a dev dependency, as most real ones do: `npm test` runs `tape-lite` from the fake
 * registry, so the tests cannot run until set-up has installed it. The lockfile is written by the real npm against
 * the fake registry, and `.npmrc` points npm at it, as a project on a private registry does.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, writeFiles, type TempRepo } from "./git-repos.js";
import type { FakeRegistry } from "./npm-registry.js";

const run = promisify(execFile);

export const FLAGS_BUGGY = '    else if (value === "false") out[key] = true;';
export const FLAGS_FIXED = '    else if (value === "false") out[key] = false;';

/**
 * Async: the registry answering npm runs in this same process. `peerConflict` adds a dev dependency whose peer
 * conflicts with tape-lite 1 (TAPE_LITE_DOTS) and commits no lockfile, as a project that never moved past npm 6.
 * `prettier` (a version the registry serves) adds a Prettier check of index.js before the tests, `typescript` a
 * `typecheck` script, `nativeDependency` a dev dependency whose install script fails (NATIVE_ADDON). `ciZone` adds a test that holds only in that time zone, and the CI workflow that sets it.
 */
export async function makeTapeRepo(
  registry: FakeRegistry,
  options: {
    bug?: boolean;
    peerConflict?: boolean;
    prettier?: string;
    lintApart?: boolean;
    lintFailsBefore?: boolean;
    typescript?: string;
    ciZone?: string;
    nativeDependency?: boolean;
  } = {},
): Promise<TempRepo> {
  const planted = options.bug ?? true;
  const conflict = options.peerConflict ?? false;
  // With a Prettier version: its check of index.js runs before the tests, as `npm run lint` (with `lintApart`, the
  // test script does not run it: only CI would; with `lintFailsBefore`, it checks a file Prettier would change too).
  const { prettier, typescript } = options;
  const test =
    prettier === undefined || options.lintApart === true
      ? "tape-lite test/*.js"
      : "npm run lint && tape-lite test/*.js";
  const scripts = {
    ...(prettier === undefined
      ? {}
      : { lint: `prettier --check index.js${options.lintFailsBefore === true ? " legacy.js" : ""}` }),
    test,
    // With a TypeScript version: `tsc` checks index.js's JSDoc types, which the tests never do.
    ...(typescript === undefined ? {} : { typecheck: "tsc -p ." }),
  };
  const dir = mkdtempSync(join(tmpdir(), "patchsmith-tape-"));
  const files: Record<string, string> = {
    ".npmrc": `registry=${registry.url}\n`,
    ".gitignore": "node_modules/\n",
    "package.json": `${JSON.stringify(
      {
        name: "flag-parser",
        version: "1.0.0",
        main: "index.js",
        scripts,
        devDependencies: {
          "tape-lite": "^1.0.0",
          ...(conflict ? { "tape-lite-dots": "^1.0.0" } : {}),
          ...(prettier === undefined ? {} : { prettier }),
          ...(typescript === undefined ? {} : { typescript }),
          ...(options.nativeDependency === true ? { "zopfli-lite": "^1.0.0" } : {}),
        },
      },
      null,
      2,
    )}\n`,
    ...(typescript === undefined
      ? {}
      : {
          "tsconfig.json": `${JSON.stringify({
            compilerOptions: { allowJs: true, checkJs: true, noEmit: true, strict: true, types: [] },
            files: ["index.js"],
          })}\n`,
        }),
    "index.js": [
      '"use strict";',
      '/** Parses --key=value flags; "true" and "false" become booleans. */',
      "module.exports = function parse(/** @type {string[]} */ args) {",
      "  /** @type {Record<string, string | boolean>} */",
      "  const out = {};",
      "  for (const arg of args) {",
      "    const match = /^--([^=]+)(?:=(.*))?$/.exec(arg);",
      "    if (!match) continue;",
      "    const [, key, value] = match;",
      '    if (value === undefined || value === "true") out[key] = true;',
      planted ? FLAGS_BUGGY : FLAGS_FIXED,
      "    else out[key] = value;",
      "  }",
      "  return out;",
      "};",
      "",
    ].join("\n"),
    ...(options.lintFailsBefore === true ? { "legacy.js": "var  legacy=1\n" } : {}),
    ...(options.ciZone === undefined ? {} : zoneTest(options.ciZone)),
    "test/parse.js": [
      '"use strict";',
      'const test = require("tape-lite");',
      'const assert = require("node:assert/strict");',
      'const parse = require("../index.js");',
      "",
      'test("a bare flag is true", () => {',
      '  assert.deepEqual(parse(["--verbose"]), { verbose: true });',
      "});",
      "",
      'test("--flag=false is false", () => {',
      '  assert.deepEqual(parse(["--color=false"]), { color: false });',
      "});",
      "",
      'test("a value is kept", () => {',
      '  assert.deepEqual(parse(["--name=ada"]), { name: "ada" });',
      "});",
      "",
    ].join("\n"),
  };
  writeFiles(dir, files);
  if (!conflict)
    await run("npm", ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: dir, npm_config_cache: join(dir, ".npm-cache") },
    });
  rmSync(join(dir, ".npm-cache"), { recursive: true, force: true });
  git(dir, ["init", "--quiet", "--initial-branch", "main"]);
  git(dir, ["add", "--all"]);
  git(dir, ["commit", "--quiet", "-m", "Initial commit"]);
  return {
    dir,
    branch: "main",
    headSha: git(dir, ["rev-parse", "HEAD"]).trim(),
    testCommand: "npm test",
    ...(planted
      ? { bug: { path: "index.js", buggy: FLAGS_BUGGY, fixed: FLAGS_FIXED, failingTest: "--flag=false is false" } }
      : {}),
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test of dates shown in the zone the project's CI sets for its tests, and that CI workflow. */
function zoneTest(zone: string): Record<string, string> {
  return {
    "test/zone.js": [
      'const test = require("tape-lite");',
      'const assert = require("node:assert/strict");',
      "",
      'test("dates are shown in the zone CI runs in", () => {',
      `  assert.equal(Intl.DateTimeFormat().resolvedOptions().timeZone, ${JSON.stringify(zone)});`,
      "});",
      "",
    ].join("\n"),
    ".github/workflows/test.yml": [
      "on: [push, pull_request]",
      "jobs:",
      "  test:",
      "    runs-on: ubuntu-latest",
      "    env:",
      `      TZ: ${zone}`,
      "    steps:",
      "      - uses: actions/checkout@v4",
      "      - run: npm ci",
      "      - run: npm test",
      "  release:",
      "    runs-on: ubuntu-latest",
      "    env:",
      "      RELEASE_CHANNEL: next",
      "    steps:",
      "      - run: npm publish",
      "",
    ].join("\n"),
  };
}
