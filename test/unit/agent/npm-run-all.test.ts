import { describe, expect, it } from "vitest";
import { npmRunAllScripts } from "../../../src/agent/npm-run-all.js";

const scripts = {
  "test:eslint": "eslint .",
  "test:node": "tsx --test test/*.ts",
  "test:node:slow": "tsx --test test/slow/*.ts",
  "test:prettier": "prettier --check .",
  build: "tsc",
};

describe("npmRunAllScripts", () => {
  it("reads the scripts run-p, run-s and npm-run-all run, patterns in package.json's order", () => {
    expect(npmRunAllScripts("run-p --aggregate-output test:*", scripts)).toEqual([
      "test:eslint",
      "test:node",
      "test:prettier",
    ]);
    expect(npmRunAllScripts("run-s build test:**", scripts)).toEqual([
      "build",
      "test:eslint",
      "test:node",
      "test:node:slow",
      "test:prettier",
    ]);
    expect(npmRunAllScripts("npm-run-all -s build -p test:node test:eslint --max-parallel 2", scripts)).toEqual([
      "build",
      "test:node",
      "test:eslint",
    ]);
  });

  it("is none for another command, arguments passed on, an unknown option, or a name that is no script", () => {
    expect(npmRunAllScripts("concurrently test:*", scripts)).toBeUndefined();
    expect(npmRunAllScripts("run-p test:* -- --watch", scripts)).toBeUndefined();
    expect(npmRunAllScripts("run-p --config x test:*", scripts)).toBeUndefined();
    // A server raced beside the tests would never end if run first.
    expect(npmRunAllScripts("run-p --race build test:node", scripts)).toBeUndefined();
    expect(npmRunAllScripts('run-p "test:node --only"', scripts)).toBeUndefined();
    expect(npmRunAllScripts("run-s build lint", scripts)).toBeUndefined();
    expect(npmRunAllScripts("run-p docs:*", scripts)).toBeUndefined();
    expect(npmRunAllScripts("run-p", scripts)).toBeUndefined();
  });
});
