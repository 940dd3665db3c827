import { describe, expect, it } from "vitest";
import { npmWithScripts } from "./harness.js";
import { lintScript } from "../../../src/agent/lint-script.js";
import { resolveTestCommand } from "../../../src/agent/test-runs.js";

const npm = npmWithScripts;

describe("the lint beside the tests", () => {
  it("runs after tests that do not lint, judged as a step besides the tests, after the type check", () => {
    expect(npm({ test: "mocha", lint: "eslint ." })).toEqual({
      kind: "command",
      command: "npm test, then npm run lint",
      steps: [
        { command: "npm test --ignore-scripts", main: true },
        { command: "npm run lint", main: false, added: true, checks: "lint" },
      ],
    });
    expect(npm({ test: "jest", typecheck: "tsc --noEmit", "lint:js": "xo" })).toMatchObject({
      command: "npm test, then npm run typecheck, then npm run lint:js",
    });
  });

  it("is the usual name whose command lints, followed through the scripts it calls", () => {
    expect(lintScript({ test: "mocha", lint: "npm run lint:src", "lint:src": "eslint src --max-warnings 0" })).toBe(
      "lint",
    );
    expect(lintScript({ test: "vitest", lint: "run-s lint:*", "lint:es": "oxlint", "lint:fmt": "prettier -c ." })).toBe(
      "lint",
    );
    expect(lintScript({ test: "ava", "lint:check": "biome check ." })).toBe("lint:check");
    expect(lintScript({ test: "tap", lint: "./node_modules/.bin/standard" })).toBe("lint");
    expect(lintScript({ test: "jest", lint: "next lint" })).toBe("lint");
    expect(lintScript({ test: "jest", lint: "vue-cli-service lint" })).toBeUndefined();
    // A script of that name that runs no linter, or a formatter that writes, is not one.
    expect(lintScript({ test: "mocha", lint: "node scripts/standard.js" })).toBeUndefined();
    expect(lintScript({ test: "mocha", lint: "prettier ." })).toBeUndefined();
    expect(lintScript({ test: "mocha" })).toBeUndefined();
  });

  it("is not added when the test run already lints, however it reaches the linter", () => {
    for (const scripts of [
      { test: "xo && ava" },
      { pretest: "npm run lint", test: "mocha", lint: "eslint ." },
      { pretest: "npm run --silent readme && npm run -s lint", test: "tape", readme: "evalmd", lint: "eslint ." },
      { test: "npm run lint && node --test", lint: "standard" },
      { test: "node --test", posttest: "eslint .", lint: "eslint ." },
      { test: "run-p test:*", "test:unit": "mocha", "test:lint": "eslint .", lint: "eslint ." },
    ]) {
      expect(lintScript(scripts)).toBeUndefined();
      expect(JSON.stringify(npm(scripts))).not.toContain("then npm run");
    }
  });

  it("is not added to a test command the request or the repository's config gives: that runs as written", async () => {
    // Neither the runner nor the tree is asked when the command is given.
    const unused = undefined as never;
    for (const given of [
      { requested: "npm test", configured: undefined },
      { requested: undefined, configured: "npm test" },
    ]) {
      const test = await resolveTestCommand(unused, unused, unused, given, ["package.json"]);
      expect(test).toEqual({ command: "npm test", source: given.requested === undefined ? "repo-config" : "request" });
    }
  });

  it("is not added when it, or what npm runs before or after it, writes the files it checks", () => {
    for (const scripts of [
      { test: "mocha", lint: "eslint . --fix" },
      { test: "mocha", lint: "oxlint --fix src test", postlint: "npm run format", format: "prettier --write ." },
      { test: "mocha", lint: "run-s lint:*", "lint:js": "eslint .", "lint:fmt": "prettier -w ." },
      { test: "mocha", lint: "biome check --apply ." },
      { test: "mocha", prelint: "biome format --write .", lint: "biome lint ." },
    ]) {
      expect(lintScript(scripts)).toBeUndefined();
    }
  });
});
