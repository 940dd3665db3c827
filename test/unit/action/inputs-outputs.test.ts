import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { INPUT_NAMES, inputVariable, readSettings } from "../../../src/action/inputs.js";
import { outputLines } from "../../../src/action/outputs.js";

const runner = {
  GITHUB_EVENT_NAME: "issue_comment",
  GITHUB_EVENT_PATH: "/tmp/event.json",
  GITHUB_API_URL: "https://ghe.example.com/api/v3/",
  GITHUB_SERVER_URL: "https://ghe.example.com",
};
const input = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [inputVariable(name), value]));

describe("the Action's inputs", () => {
  it("are the ones action.yml declares", () => {
    const declared = parse(readFileSync(new URL("../../../action.yml", import.meta.url), "utf8")) as {
      inputs: Record<string, unknown>;
    };
    expect(Object.keys(declared.inputs).sort()).toEqual([...INPUT_NAMES].sort());
  });

  it("become the CLI's variables and the run's settings, on the runner's (Enterprise) API URL", () => {
    const result = readSettings({
      ...runner,
      ...input({ "github-token": "t0ken", "openai-api-key": "sk-x", model: "m", setup: "npm ci\n\nnpm run build\n" }),
      ...input({ "max-attempts": "2", "edit-format": "udiff", sandbox: "none", "test-minutes": "12" }),
    });
    if (!result.ok) throw new Error(result.message);
    expect(result.settings).toMatchObject({
      testTimeoutMs: 720_000,
      token: "t0ken",
      apiUrl: "https://ghe.example.com/api/v3",
      setup: ["npm ci", "npm run build"],
      maxAttempts: 2,
      editFormat: "udiff",
      cliEnv: { OPENAI_API_KEY: "sk-x", PATCHSMITH_MODEL: "m", PATCHSMITH_TEST_SANDBOX: "none" },
    });
    const off = readSettings({ ...runner, ...input({ "github-token": "t", setup: "false" }) });
    expect(off.ok && off.settings.setup).toBe(false);
  });

  it("refuses what it cannot use, naming the input, and a run outside Actions", () => {
    expect(readSettings({ ...runner, ...input({ "github-token": "t", "max-attempts": "many" }) })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/'max-attempts': must be a whole number/) as unknown,
    });
    expect(readSettings({ ...runner, ...input({ "github-token": "t", "edit-format": "xml" }) }).ok).toBe(false);
    expect(readSettings(input({ "github-token": "t" }))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^not run by GitHub Actions/) as unknown,
    });
  });
});

describe("the Action's outputs", () => {
  it("cannot be forged by a value that holds the delimiter", () => {
    const delimiters = ["EOF", "EOF", "X1", "X2", "X3", "X4", "X5"];
    const text = outputLines(
      { status: "success", branch: "b\nEOF\nstatus<<Z", commits: ["a", "b"], notes: [] },
      () => delimiters.shift() ?? "Z9",
    );
    expect(text).toContain("branch<<X1\nb\nEOF\nstatus<<Z\nX1\n");
    expect(text).toContain("commits<<X2\na\nb\nX2\n");
  });
});
