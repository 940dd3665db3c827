import { describe, expect, it, vi } from "vitest";
import { ciEnvironmentNote, ciTestEnvironment, underOwn, WORKFLOW_PATH } from "../../../src/agent/ci-env.js";

const lines = (...l: string[]): string => `${l.join("\n")}\n`;
const of = (files: Record<string, string>) => ciTestEnvironment(new Map(Object.entries(files)));

describe("the variables CI sets for its tests", () => {
  it("takes the workflow's, the job's and the step's env where a step runs the tests, the closest winning", () => {
    const ci = of({
      ".github/workflows/test.yml": lines(
        "env:",
        "  FORCE_COLOR: 0",
        "  LANG: C",
        "jobs:",
        "  test:",
        "    runs-on: ubuntu-latest",
        "    env:",
        "      LANG: en_US.utf8",
        "      LIMIT_JEST: yes",
        "      TZ: America/New_York",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - run: npm ci",
        "      - run: npm run test",
        "        env:",
        "          NODE_OPTIONS: --max-old-space-size=4096",
      ),
    });
    expect(ci).toEqual({
      env: {
        FORCE_COLOR: "0",
        LANG: "en_US.utf8",
        LIMIT_JEST: "yes",
        NODE_OPTIONS: "--max-old-space-size=4096",
        TZ: "America/New_York",
      },
      from: Object.fromEntries(
        ["FORCE_COLOR", "LANG", "LIMIT_JEST", "NODE_OPTIONS", "TZ"].map((name) => [
          name,
          [".github/workflows/test.yml"],
        ]),
      ),
    });
  });

  it("ignores jobs and steps that run no tests", () => {
    const ci = of({
      ".github/workflows/ci.yml": lines(
        "jobs:",
        "  lint:",
        "    env: { LINT_MODE: strict }",
        "    steps:",
        "      - run: npm run lint",
        "  release:",
        "    env: { CHANNEL: next }",
        "    steps:",
        "      - run: npm publish",
        "  build:",
        "    steps:",
        "      - run: npm run build",
        "        env: { MINIFY: 1 }",
      ),
    });
    expect(ci.env).toEqual({});
    expect(ciEnvironmentNote(ci)).toBeUndefined();
  });

  it("recognises the usual ways of running tests", () => {
    const runs = [
      "npm test",
      "npm t",
      "yarn test --coverage",
      "pnpm -r test",
      "npm run test:ci",
      "npx jest --ci",
      "python -m pytest -q",
      "python3.12 -m unittest discover",
      "tox -e py312",
      "tox run -e py3.12,py3.13",
      "nox -s tests",
      "pytest",
      "python manage.py test",
      "make check",
      "go test ./...",
      "cargo test",
    ];
    for (const run of runs) {
      const ci = of({
        ".github/workflows/t.yml": lines("jobs:", "  t:", "    env: { TZ: UTC }", "    steps:", `      - run: ${run}`),
      });
      expect(ci.env, run).toEqual({ TZ: "UTC" });
    }
    const others = ["npm ci", "yarn install", "npm run typecheck", "npm run build", "pip install -e ."];
    for (const run of [...others, "uvx --with tox-uv tox -e mypy", "tox -e docs", "nox -s lint"]) {
      const ci = of({
        ".github/workflows/t.yml": lines("jobs:", "  t:", "    env: { TZ: UTC }", "    steps:", `      - run: ${run}`),
      });
      expect(ci.env, run).toEqual({});
    }
  });

  it("leaves out what has no value here, what CI's test runs disagree on, and what belongs to the runner", () => {
    const ci = of({
      ".github/workflows/a.yml": lines(
        "jobs:",
        "  test:",
        "    strategy: { matrix: { tz: [UTC, Asia/Tokyo] } }",
        "    env:",
        "      TZ: ${{ matrix.tz }}",
        "      MODE: unit",
        "      NPM_TOKEN: abc",
        "      GITHUB_STEP_SUMMARY: x",
        "      PATH: /opt/bin",
        "      HOME: /root",
        "      COUNT: 3",
        "    steps:",
        "      - run: npm test",
      ),
      ".github/workflows/b.yml": lines(
        "jobs:",
        "  more:",
        "    env:",
        "      MODE: integration",
        "      COUNT: 3",
        "    steps:",
        "      - run: npm test",
      ),
    });
    expect(ci).toEqual({
      env: { COUNT: "3" },
      from: { COUNT: [".github/workflows/a.yml", ".github/workflows/b.yml"] },
    });
  });

  it("does not mirror jobs on Windows or macOS runners", () => {
    const ci = of({
      ".github/workflows/t.yml": lines(
        "jobs:",
        "  win:",
        "    runs-on: windows-latest",
        "    env: { TZ: Pacific/Auckland }",
        "    steps:",
        "      - run: npm test",
      ),
    });
    expect(ci.env).toEqual({});
  });

  it("logs no warning of YAML's for a workflow with a tag it does not know", () => {
    const warn = vi.spyOn(process, "emitWarning");
    try {
      const ci = of({
        ".github/workflows/t.yml": lines(
          "jobs:",
          "  t:",
          "    env: !custom { TZ: UTC }",
          "    steps:",
          "      - run: npm test",
        ),
      });
      expect(ci.env).toEqual({ TZ: "UTC" });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it("reads past a workflow that is not valid YAML or not a workflow", () => {
    const ci = of({
      ".github/workflows/broken.yml": "jobs: [\n",
      ".github/workflows/list.yml": "- a\n- b\n",
      ".github/workflows/ok.yaml": lines(
        "jobs:",
        "  t:",
        "    steps:",
        "      - run: npm test",
        "        env: { TZ: UTC }",
      ),
    });
    expect(ci).toEqual({ env: { TZ: "UTC" }, from: { TZ: [".github/workflows/ok.yaml"] } });
  });

  it("yields to a variable set-up or the request sets, and the note lists only CI's that the runs got", () => {
    const ci = {
      env: { TZ: "UTC", VIRTUAL_ENV: "/opt/venv", LANG: "C" },
      from: {
        TZ: [".github/workflows/t.yml"],
        VIRTUAL_ENV: [".github/workflows/py.yml"],
        LANG: [".github/workflows/t.yml"],
      },
    };
    const { env, ci: kept } = underOwn(ci, { VIRTUAL_ENV: "/clone/.venv", LANG: "en_US.UTF-8" });
    expect(env).toEqual({ TZ: "UTC", VIRTUAL_ENV: "/clone/.venv", LANG: "en_US.UTF-8" });
    expect(kept).toEqual({ env: { TZ: "UTC" }, from: { TZ: [".github/workflows/t.yml"] } });
    expect(ciEnvironmentNote(kept)).toBe(
      "Set-up and tests ran with what the CI workflow sets for its tests (.github/workflows/t.yml): TZ=UTC.",
    );
  });

  it("says what it set and from where", () => {
    const from = { LANG: [".github/workflows/test.yml"], TZ: [".github/workflows/test.yml"] };
    expect(ciEnvironmentNote({ env: { LANG: "en_US.utf8", TZ: "UTC" }, from })).toBe(
      "Set-up and tests ran with what the CI workflow sets for its tests (.github/workflows/test.yml): LANG=en_US.utf8, TZ=UTC.",
    );
  });

  it("reads the workflows folder's YAML files only", () => {
    expect([".github/workflows/ci.yml", ".github/workflows/t.yaml"].every((p) => WORKFLOW_PATH.test(p))).toBe(true);
    expect(
      [".github/workflows/sub/ci.yml", ".github/dependabot.yml", "ci.yml"].some((p) => WORKFLOW_PATH.test(p)),
    ).toBe(false);
  });
});
