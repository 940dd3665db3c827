/**
 * The host's npm registry that set-up follows: from the user's npmrc and the variables, for npm, pnpm, Yarn Berry
 * and corepack alike; tokens and URLs with credentials never pass.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { npmrcRegistries, npmSettings, readNpmSettings } from "../../../src/adapters/sandbox/npm-settings.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const NPMRC = [
  "fund=false",
  'registry = "https://npm.mirror.example/"',
  "@acme:registry=https://npm.acme.example/",
  "//npm.acme.example/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789",
  "@private:registry=https://bot:hunter2@npm.private.example/",
  "@env:registry=${ACME_REGISTRY}",
  "",
].join("\n");

describe("npmSettings", () => {
  it("passes the registries to npm, Yarn Berry and corepack; never a token, a credential URL or an unexpanded variable", () => {
    expect(npmrcRegistries(NPMRC).get("registry")).toBe("https://npm.mirror.example/");
    const settings = npmSettings(NPMRC, {});
    expect(settings.env).toEqual({
      npm_config_registry: "https://npm.mirror.example/",
      "npm_config_@acme:registry": "https://npm.acme.example/",
      YARN_NPM_REGISTRY_SERVER: "https://npm.mirror.example/",
      COREPACK_NPM_REGISTRY: "https://npm.mirror.example",
    });
    expect(settings.withheld).toEqual(["@private:registry"]);
    expect(JSON.stringify(settings)).not.toMatch(/hunter2|_authToken|npm_abc/);
  });

  it("takes the host's variable over the file", () => {
    expect(npmSettings(NPMRC, { NPM_CONFIG_REGISTRY: "https://other.example/" }).env.npm_config_registry).toBe(
      "https://other.example/",
    );
    expect(npmSettings(undefined, {}).env).toEqual({});
  });

  it("reads the npmrc npm_config_userconfig names, else ~/.npmrc", async () => {
    const home = mkdtempSync(join(tmpdir(), "patchsmith-npmhome-"));
    made.push(home);
    writeFileSync(join(home, ".npmrc"), "registry=https://home.example/\n");
    writeFileSync(join(home, "other.npmrc"), "registry=https://named.example/\n");
    expect((await readNpmSettings({}, home)).env.npm_config_registry).toBe("https://home.example/");
    const named = await readNpmSettings({ npm_config_userconfig: join(home, "other.npmrc") }, home);
    expect(named.env.npm_config_registry).toBe("https://named.example/");
  });
});
