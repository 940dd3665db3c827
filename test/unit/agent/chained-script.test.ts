import { describe, expect, it } from "vitest";
import { andParts, chainedTestScript, partCommand, swallowedCommand } from "../../../src/agent/chained-script.js";
import { shellQuote } from "../../../src/agent/shell-quote.js";

describe("a command's parts joined by && at its top level", () => {
  it("are split and trimmed", () => {
    expect(andParts("xo && c8 ava&&tsd")).toEqual(["xo", "c8 ava", "tsd"]);
    expect(andParts("tsc -p . | tee log && node --test")).toEqual(["tsc -p . | tee log", "node --test"]);
  });

  it("keep quotes, escapes, subshells and command substitutions whole", () => {
    expect(andParts(`echo "a && b" && echo 'c && d' && echo \\&\\& && (x && y) && echo $(p && q) && mocha`)).toEqual([
      `echo "a && b"`,
      `echo 'c && d'`,
      "echo \\&\\&",
      "(x && y)",
      "echo $(p && q)",
      "mocha",
    ]);
  });

  it("are none for one part, or where the top level sequences commands otherwise", () => {
    for (const command of ["mocha", "lint || true && mocha", "lint; mocha", "lint & mocha", "lint\nmocha", `a && "b`])
      expect(andParts(command), command).toBeUndefined();
  });
});

describe("a chained test script", () => {
  it("names the parts that run a test runner", () => {
    expect(chainedTestScript("xo && c8 ava && tsd")).toEqual({ parts: ["xo", "c8 ava", "tsd"], tests: [1] });
    expect(chainedTestScript("node scripts/lint.js && node --test")?.tests).toEqual([1]);
    expect(chainedTestScript("tsc && ./node_modules/.bin/jest --ci")?.tests).toEqual([1]);
    const byPattern = { lint: "eslint .", "test:unit": "vitest run", "test:types": "tsc --noEmit" };
    expect(chainedTestScript('pnpm lint && pnpm run "/^test:/"', byPattern)?.tests).toEqual([1]);
    expect(chainedTestScript("jest && vitest")?.tests).toEqual([0, 1]);
  });

  it("names every part that runs the tests again, with variables set for it alone", () => {
    const scripts = { "test-tz": "date && jest test/timezone.test --coverage=false" };
    const chain =
      "cross-env TZ=Pacific/Auckland npm run test-tz && npm run test-tz && TZ=UTC npm run test-tz && eslint src && jest --coverage";
    expect(chainedTestScript(chain, scripts)?.tests).toEqual([0, 1, 2, 4]);
  });

  it("finds the runner through the scripts a part runs", () => {
    const scripts = {
      "test:lint": "eslint lib",
      "test:unit": "npm run unit:all",
      "unit:all": "node bin/setup.js mocha test/unit --exit",
      "test:browser": "karma start --single-run",
    };
    const chain = "npm run test:lint && npm run test:unit && npm run test:browser";
    expect(chainedTestScript(chain, scripts)).toEqual({
      parts: ["npm run test:lint", "npm run test:unit", "npm run test:browser"],
      tests: [1, 2],
    });
    expect(chainedTestScript("npm run test:lint && npm run test:types", scripts)).toBeUndefined();
  });

  it("runs npm-run-all's scripts as parts of their own, the tests among them", () => {
    const scripts = {
      "test:eslint": "eslint --cache .",
      "test:node": "tsx --test test/*.ts",
      "test:prettier": "prettier --check .",
      "test:typescript": "tsc --noEmit",
    };
    expect(chainedTestScript("run-p --aggregate-output test:*", scripts)).toEqual({
      parts: ["npm run test:eslint", "npm run test:node", "npm run test:prettier", "npm run test:typescript"],
      tests: [1],
    });
    expect(chainedTestScript("npm run build && run-s test:node", { ...scripts, build: "tsc" })?.tests).toEqual([1]);
    // Through a script that runs them: the part runs tests.
    const nested = { ...scripts, "check:all": "run-p test:*" };
    expect(chainedTestScript("npm run lint && npm run check:all", { ...nested, lint: "eslint" })?.tests).toEqual([1]);
    // Flags that take no value, around the name, as npm, Yarn and pnpm take them.
    expect(
      chainedTestScript("npm run --silent lint && yarn -s unit --if-present", { lint: "eslint", unit: "mocha" })?.tests,
    ).toEqual([1]);
    expect(chainedTestScript("run-p test:eslint test:prettier", scripts)).toBeUndefined();
  });

  it("takes Node running the project's own test script for a runner", () => {
    const scripts = { lint: "standard", unit: "nyc node test.js", "unit-esm": "node test.mjs" };
    expect(chainedTestScript("npm run lint && npm run unit && npm run unit-esm", scripts)?.tests).toEqual([1, 2]);
    expect(chainedTestScript("eslint . && node ./test/index.js")?.tests).toEqual([1]);
    expect(chainedTestScript("eslint . && node scripts/build.js")).toBeUndefined();
    expect(chainedTestScript("eslint . && node testing-tools.js")).toBeUndefined();
  });

  it("finds it through a script Yarn or pnpm runs, named alone or after `run`", () => {
    const scripts = {
      "test:build": "yarn build && vitest run --config vitest.config.build.ts",
      "test:flow": "flow check",
    };
    expect(chainedTestScript("vitest run && yarn test:build && yarn test:flow", scripts)?.tests).toEqual([0, 1]);
    expect(chainedTestScript("eslint . && pnpm run test:build", scripts)?.tests).toEqual([1]);
    expect(chainedTestScript("eslint . && pnpm test:build", scripts)?.tests).toEqual([1]);
    // A Yarn command that is no script of the package runs no tests.
    expect(chainedTestScript("vitest run && yarn audit", scripts)?.tests).toEqual([0]);
  });

  it("is none without a runner part, or with a part that changes the shell the others run in", () => {
    expect(chainedTestScript("npm run lint && npm run unit")).toBeUndefined();
    expect(chainedTestScript("cd packages/core && jest")).toBeUndefined();
    expect(chainedTestScript("export NODE_OPTIONS=--no-warnings && mocha")).toBeUndefined();
    expect(chainedTestScript("NODE_ENV=test && mocha")).toBeUndefined();
    expect(chainedTestScript("eslint . && NODE_ENV=test mocha")?.tests).toEqual([1]);
    // A word that only contains a runner's name is none.
    expect(chainedTestScript("lint-staged && tapestry")).toBeUndefined();
  });
});

describe("a part's command", () => {
  it("runs another script as npm run does, anything else in npm's shell", () => {
    expect(partCommand("npm run test:unit")).toBe("npm run test:unit");
    expect(partCommand("c8 ava")).toBe("npm exec -c 'c8 ava'");
  });
});

describe("a single-quoted shell word", () => {
  it("closes, escapes and reopens around a quote", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe("a test script that passes whatever its tests say", () => {
  it("runs the command before its trailing `|| true`, `|| exit 0`, `|| :` or `|| echo …`", () => {
    expect(swallowedCommand("mocha || true")).toBe("mocha");
    expect(swallowedCommand("jest --ci 2>&1 || exit 0;")).toBe("jest --ci 2>&1");
    expect(swallowedCommand("xo && ava || :")).toBe("xo && ava");
    expect(swallowedCommand(`tape test/*.js || echo "tests failed"`)).toBe("tape test/*.js");
    expect(swallowedCommand("mocha; exit 0")).toBe("mocha");
    // A pipe before the ending stays part of the command.
    expect(swallowedCommand("tape test/*.js | tap-spec || true")).toBe("tape test/*.js | tap-spec");
    expect(swallowedCommand("jest --ci; true;")).toBe("jest --ci");
  });

  it("is none where the ending can fail, retries, or follows other sequencing", () => {
    for (const script of [
      "mocha",
      "mocha || exit 1",
      "mocha || exit",
      "jest || jest --no-cache",
      "lint; mocha || true",
      "lint; mocha; exit 0",
      "mocha; echo done && exit 1",
      "mocha; node report.js",
      "(mocha || true)",
      `echo "a || true"`,
      "|| true",
    ])
      expect(swallowedCommand(script), script).toBeUndefined();
  });
});

describe("a test script piped into tee", () => {
  it("runs the command before the pipe: the pipeline exits with tee's status", () => {
    expect(swallowedCommand("mocha | tee test.log")).toBe("mocha");
    expect(swallowedCommand("jest --ci 2>&1 | tee -a out/test.log;")).toBe("jest --ci 2>&1");
    expect(swallowedCommand("xo && ava | tee log")).toBe("xo && ava");
  });

  it("is none for a pipe into anything else, a pipe inside, or other sequencing", () => {
    for (const script of [
      "mocha | tap-spec",
      "tape test/*.js | faucet",
      "mocha | tee log | grep -v skip",
      "lint; mocha | tee log",
      "(mocha | tee log)",
      `echo "a | tee b"`,
      "mocha |& tee log",
      "| tee log",
    ])
      expect(swallowedCommand(script), script).toBeUndefined();
  });
});

describe("redirections", () => {
  it("are not operators: a chain with `2>&1` or `&>` still splits", () => {
    expect(andParts("tsc 2>&1 && mocha &> log")).toEqual(["tsc 2>&1", "mocha &> log"]);
  });
});
