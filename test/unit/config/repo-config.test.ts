import { describe, expect, it } from "vitest";
import { DEFAULT_REPO_CONFIG, parseRepoConfig, resolveRepoConfig } from "../../../src/config/repo-config.js";

describe("parseRepoConfig", () => {
  it("gives the defaults when there is no file", () => {
    expect(parseRepoConfig(undefined)).toEqual({ ok: true, config: DEFAULT_REPO_CONFIG });
    expect(DEFAULT_REPO_CONFIG.forbiddenPaths).toEqual([".github/workflows/**", ".github/patchsmith.yml"]);
  });

  it("reads every setting", () => {
    const text = [
      "setup: [npm ci, npm run build]",
      "test: npm run test:unit",
      "env:",
      "  TZ: UTC",
      "  RETRIES: 2",
      "model: qwen2.5-coder",
      "budget:",
      "  attempts: 2",
      "  tokens: 80000",
      "  minutes: 10",
      "paths:",
      "  forbidden: ['secrets/**', 'vendor/**']",
      "triggers:",
      "  min-permission: maintain",
      "  users: [maintainer-mia]",
    ].join("\n");
    expect(parseRepoConfig(text)).toEqual({
      ok: true,
      config: {
        setupCommands: ["npm ci", "npm run build"],
        testCommand: "npm run test:unit",
        env: { TZ: "UTC", RETRIES: "2" },
        model: "qwen2.5-coder",
        maxAttempts: 2,
        tokenBudget: 80000,
        wallTimeMs: 600_000,
        forbiddenPaths: [".github/workflows/**", ".github/patchsmith.yml", "secrets/**", "vendor/**"],
        trigger: { minPermission: "maintain", users: ["maintainer-mia"] },
        fromFile: true,
      },
    });
  });

  it("reads the edit dialect to teach the model, and refuses one it does not know", () => {
    const chosen = parseRepoConfig("edit-format: udiff\n");
    expect(chosen.ok && chosen.config.editFormat).toBe("udiff");
    expect(parseRepoConfig("edit-format: xml\n")).toMatchObject({ ok: false, reason: "invalid-config" });
  });

  it("reads set-up as one command, a list, or false (no set-up at all)", () => {
    const one = parseRepoConfig("setup: make deps\n");
    expect(one.ok && one.config.setupCommands).toEqual(["make deps"]);
    const none = parseRepoConfig("setup: false\n");
    expect(none.ok && none.config.setupCommands).toEqual([]);
    const absent = parseRepoConfig("test: make test\n");
    expect(absent.ok && absent.config.setupCommands).toBeUndefined();
    expect(parseRepoConfig("env:\n  BAD-NAME: x\n")).toMatchObject({ ok: false, reason: "invalid-config" });
  });

  it("keeps workflows forbidden unless explicitly allowed", () => {
    const allowed = parseRepoConfig("paths:\n  allow-workflows: true\n");
    // The config file itself stays protected even when workflows are allowed.
    expect(allowed.ok && allowed.config.forbiddenPaths).toEqual([".github/patchsmith.yml"]);
    const empty = parseRepoConfig("# nothing yet\n");
    expect(empty.ok && empty.config.forbiddenPaths).toEqual([".github/workflows/**", ".github/patchsmith.yml"]);
  });

  it("refuses unknown keys, so a typo cannot silently change behaviour", () => {
    const result = parseRepoConfig("budget:\n  atempts: 2\n");
    expect(result).toMatchObject({ ok: false, reason: "invalid-config" });
    expect(!result.ok && result.message).toContain("atempts");
  });

  it("gives a slow suite the time one run of it needs, the default otherwise", () => {
    const slow = parseRepoConfig("budget:\n  test-minutes: 12.5\n");
    expect(slow.ok && slow.config.testTimeoutMs).toBe(750_000);
    const none = parseRepoConfig("budget:\n  attempts: 2\n");
    expect(none.ok && none.config.testTimeoutMs).toBeUndefined();
  });

  it("refuses values out of range and a permission below write", () => {
    expect(parseRepoConfig("budget: { attempts: 0 }")).toMatchObject({ ok: false, reason: "invalid-config" });
    expect(parseRepoConfig("budget: { test-minutes: 0 }")).toMatchObject({ ok: false, reason: "invalid-config" });
    const triage = parseRepoConfig("triggers: { min-permission: triage }");
    expect(triage).toMatchObject({ ok: false, reason: "invalid-config" });
    expect(!triage.ok && triage.message).toContain("min-permission");
  });

  it("reports broken YAML with the parser's words", () => {
    const result = parseRepoConfig("test: [unclosed\n");
    expect(result).toMatchObject({ ok: false, reason: "invalid-yaml" });
    expect(!result.ok && result.message).toContain(".github/patchsmith.yml is not valid YAML");
  });

  it("refuses a file that is not a mapping", () => {
    expect(parseRepoConfig("- a\n- b\n")).toMatchObject({ ok: false, reason: "invalid-config" });
  });

  it("refuses huge files", () => {
    expect(parseRepoConfig(`# ${"x".repeat(70_000)}`)).toMatchObject({ ok: false, reason: "too-large" });
  });
});

describe("resolveRepoConfig: organisation defaults, the repository's overrides, and the organisation's floor", () => {
  const org = (data: unknown) => [{ source: "acme/.github:.github/patchsmith.yml", data }];
  const repo = (data: unknown) => [{ source: "acme/widgets:.github/patchsmith.yml", data }];

  it("takes the organisation's settings as defaults that the repository overrides key by key", () => {
    const result = resolveRepoConfig({
      org: org({ model: "org-model", budget: { attempts: 2, tokens: 50_000 }, test: "npm test" }),
      repo: repo({ budget: { attempts: 5 }, test: "npm run test:unit" }),
    });
    expect(result.ok && result.config).toMatchObject({
      model: "org-model",
      maxAttempts: 5,
      tokenBudget: 50_000,
      testCommand: "npm run test:unit",
    });
  });

  it("applies extended files first and the repository's own last", () => {
    const result = resolveRepoConfig({
      org: [],
      repo: [
        { source: "acme/shared:.github/patchsmith.yml", data: { model: "base", test: "make test" } },
        { source: "acme/widgets:.github/patchsmith.yml", data: { model: "mine" } },
      ],
    });
    expect(result.ok && result.config).toMatchObject({ model: "mine", testCommand: "make test" });
  });

  it("never lets a repository lower the organisation's protected paths or trigger rules", () => {
    const result = resolveRepoConfig({
      org: org({
        paths: { forbidden: ["secrets/**"] },
        triggers: { "min-permission": "maintain", users: ["Alice", "bob"] },
      }),
      repo: repo({
        paths: { forbidden: [], "allow-workflows": true },
        triggers: { "min-permission": "write", users: ["alice", "mallory"] },
      }),
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.forbiddenPaths).toEqual(expect.arrayContaining([".github/workflows/**", "secrets/**"]));
    expect(result.config.trigger).toEqual({ minPermission: "maintain", users: ["alice"] });
  });

  it("lets a repository tighten what the organisation set", () => {
    const result = resolveRepoConfig({
      org: org({ triggers: { "min-permission": "write" } }),
      repo: repo({ paths: { forbidden: ["db/**"] }, triggers: { "min-permission": "admin" } }),
    });
    expect(result.ok && result.config.trigger.minPermission).toBe("admin");
    expect(result.ok && result.config.forbiddenPaths).toContain("db/**");
  });

  it("names the file whose settings are wrong, and gives the defaults when there is no file at all", () => {
    const wrong = resolveRepoConfig({ org: org({ budget: { atempts: 2 } }), repo: [] });
    expect(!wrong.ok && wrong.message).toContain("acme/.github:.github/patchsmith.yml has settings");
    expect(resolveRepoConfig({ org: [], repo: [] })).toEqual({ ok: true, config: DEFAULT_REPO_CONFIG });
  });
});
