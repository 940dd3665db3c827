/**
 * The host's pip settings that set-up in the sandbox follows: read as pip reads them (its files in order, the
 * `[install]` section over `[global]`, the variables last), with credentials left out and the local folders named.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  parsePipConfig,
  pipConfigFiles,
  pipSettings,
  readPipSettings,
} from "../../../src/adapters/sandbox/pip-settings.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("parsePipConfig", () => {
  it("reads sections, both separators, continuation lines and comments, keys as pip spells them", () => {
    const sections = parsePipConfig(
      [
        "# a comment",
        "[global]",
        "timeout: 60",
        "extra_index_url =",
        "    https://mirror.example/simple",
        "    file:///srv/wheels/simple",
        "; another comment",
        "[Install]",
        "prefer-binary = true",
      ].join("\n"),
    );
    expect(sections.get("global")?.get("timeout")).toBe("60");
    expect(sections.get("global")?.get("extra-index-url")).toBe(
      "\nhttps://mirror.example/simple\nfile:///srv/wheels/simple",
    );
    expect(sections.get("install")?.get("prefer-binary")).toBe("true");
  });
});

describe("pipSettings", () => {
  it("later files win, [install] over [global], variables over files", () => {
    const settings = pipSettings(
      [
        "[global]\nindex-url = https://first.example/simple\ntrusted-host = first.example\n",
        "[global]\nindex-url = https://second.example/simple\n[install]\nindex-url = https://install.example/simple\n",
      ],
      { PIP_TRUSTED_HOST: "from-env.example", PIP_FIND_LINKS: "" },
    );
    expect(settings.env).toEqual({
      PIP_INDEX_URL: "https://install.example/simple",
      PIP_TRUSTED_HOST: "from-env.example",
    });
  });

  it("names the local folders: an index's root above its `simple` folder, find-links folders, constraint files", () => {
    const settings = pipSettings(
      [
        [
          "[global]",
          "extra-index-url = file:///opt/pypi/simple/ https://mirror.example/simple",
          "find-links = /opt/wheels",
          "constraint = /etc/xdg/pip/constraints.txt",
          "timeout = 180",
        ].join("\n"),
      ],
      {},
    );
    expect(settings.paths).toEqual(["/opt/pypi", "/opt/wheels", "/etc/xdg/pip/constraints.txt"]);
    expect(settings.env.PIP_EXTRA_INDEX_URL).toBe("file:///opt/pypi/simple/ https://mirror.example/simple");
    // A relative folder is the host's working folder's, which the sandbox has not.
    expect(pipSettings(["[global]\nfind-links = wheels /srv/wheels\n"], {}).env).toEqual({
      PIP_FIND_LINKS: "/srv/wheels",
    });
    // Only where packages come from: not timeouts or other habits of the host.
    expect(Object.keys(settings.env)).not.toContain("PIP_TIMEOUT");
  });

  it("leaves out a URL that carries credentials, and says which option lost one", () => {
    const settings = pipSettings(
      [
        "[global]\nindex-url = https://ci:s3cret@artifacts.example/simple\nextra-index-url = https://public.example/simple https://token@private.example/simple\n",
      ],
      {},
    );
    expect(settings.env).toEqual({ PIP_EXTRA_INDEX_URL: "https://public.example/simple" });
    expect(settings.withheld).toEqual(["index-url", "extra-index-url"]);
    expect(JSON.stringify(settings)).not.toContain("s3cret");
  });
});

describe("the files pip reads", () => {
  it("global ones from XDG_CONFIG_DIRS and /etc, then the user's, or the file PIP_CONFIG_FILE names", () => {
    expect(pipConfigFiles({ XDG_CONFIG_DIRS: "/etc/xdg:/opt/conf" }, "/home/u")).toEqual({
      global: ["/etc/xdg/pip/pip.conf", "/opt/conf/pip/pip.conf", "/etc/pip.conf"],
      user: ["/home/u/.pip/pip.conf", "/home/u/.config/pip/pip.conf"],
    });
    expect(pipConfigFiles({ PIP_CONFIG_FILE: "/srv/pip.conf" }, "/home/u").named).toBe("/srv/pip.conf");
  });

  it("reads the user's file, which PIP_CONFIG_FILE replaces when it exists, and none at all with /dev/null", async () => {
    const home = mkdtempSync(join(tmpdir(), "patchsmith-piphome-"));
    made.push(home);
    mkdirSync(join(home, ".config", "pip"), { recursive: true });
    writeFileSync(join(home, ".config", "pip", "pip.conf"), "[global]\nfind-links = /srv/user-wheels\n");
    const named = join(home, "named.conf");
    writeFileSync(named, "[global]\nindex-url = https://named.example/simple\n");
    const global = { XDG_CONFIG_DIRS: join(home, "no-such-dir") };
    expect((await readPipSettings(global, home)).env).toMatchObject({ PIP_FIND_LINKS: "/srv/user-wheels" });
    const withNamed = (await readPipSettings({ ...global, PIP_CONFIG_FILE: named }, home)).env;
    expect(withNamed).toMatchObject({ PIP_INDEX_URL: "https://named.example/simple" });
    expect(withNamed.PIP_FIND_LINKS).toBeUndefined();
    const missing = await readPipSettings({ ...global, PIP_CONFIG_FILE: join(home, "absent.conf") }, home);
    expect(missing.env).toMatchObject({ PIP_FIND_LINKS: "/srv/user-wheels" });
    expect((await readPipSettings({ ...global, PIP_CONFIG_FILE: "/dev/null" }, home)).env).not.toHaveProperty(
      "PIP_FIND_LINKS",
    );
  });
});
