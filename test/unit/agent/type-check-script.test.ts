import { describe, expect, it } from "vitest";
import { npmWithScripts } from "./harness.js";
import { typeCheckScript } from "../../../src/agent/type-check-script.js";

const npm = npmWithScripts;

describe("the type check beside the tests", () => {
  it("runs after tests that run TypeScript without checking it, judged as a step besides the tests", () => {
    expect(npm({ test: "jest --env node", typecheck: "tsc --noEmit", lint: "biome lint --write" })).toEqual({
      kind: "command",
      command: "npm test, then npm run typecheck",
      steps: [
        { command: "npm test --ignore-scripts", main: true },
        { command: "npm run typecheck", main: false, added: true, checks: "types" },
      ],
    });
    expect(
      npm({ pretest: "npm run lint", test: "vitest run", lint: "eslint .", "check-types": "vue-tsc --noEmit" }),
    ).toMatchObject({
      steps: [
        { command: "npm run pretest", main: false },
        { command: "npm test --ignore-scripts", main: true },
        { command: "npm run check-types", main: false, added: true, checks: "types" },
      ],
    });
  });

  it("is the usual name whose command checks types, followed through the scripts it calls", () => {
    expect(typeCheckScript({ test: "mocha", typecheck: "tsc -p tsconfig.json --noEmit" })).toBe("typecheck");
    expect(
      typeCheckScript({ test: "mocha", "check:type": "npm run check:type:ts", "check:type:ts": "tsd && tsc -p ." }),
    ).toBe("check:type");
    // A script of that name that checks nothing about types is not one.
    expect(typeCheckScript({ test: "mocha", types: "node scripts/copy-types.js", tsc: "echo skip" })).toBeUndefined();
    expect(typeCheckScript({ test: "mocha" })).toBeUndefined();
  });

  it("is not added when the test run already checks types, however it reaches the check", () => {
    const typecheck = "tsc --noEmit";
    for (const scripts of [
      { test: "vitest run --typecheck", typecheck },
      { test: "node --test && npm run check", check: "npm run check:type", "check:type": typecheck, typecheck },
      { test: "run-p --aggregate-output test:*", "test:unit": "mocha", "test:types": typecheck },
      { test: 'pnpm run "/^test:.*/"', "test:spec": "vitest run", "test:types": typecheck },
      { pretest: "rimraf build && tsc -p tsconfig.test.json", test: "mocha build/test", typecheck },
      { test: "yarn build && jest", build: "tsc", typecheck },
    ]) {
      expect(typeCheckScript(scripts)).toBeUndefined();
      expect(JSON.stringify(npm(scripts))).not.toContain("then npm run");
    }
  });
});
