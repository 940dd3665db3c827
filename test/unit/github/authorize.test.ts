import { describe, expect, it } from "vitest";
import { authorize, deservesExplanation, screenActor, toPermission } from "../../../src/github/authorize.js";

const mia = { login: "maintainer-mia", type: "User" };
const rule = { minPermission: "write" as const };

describe("authorize", () => {
  it("lets write, maintain and admin trigger work", () => {
    for (const permission of ["write", "maintain", "admin"] as const) {
      expect(authorize(mia, permission, rule, "patchsmith[bot]")).toEqual({ ok: true });
    }
  });

  it("refuses triage, read and none", () => {
    for (const permission of ["triage", "read", "none"] as const) {
      expect(authorize(mia, permission, rule, "patchsmith[bot]")).toEqual({
        ok: false,
        reason: "insufficient-permission",
      });
    }
  });

  it("never lets bots or the app itself trigger, whatever their permission", () => {
    expect(authorize({ login: "dependabot[bot]", type: "Bot" }, "admin", rule, "patchsmith[bot]")).toEqual({
      ok: false,
      reason: "bot",
    });
    expect(authorize({ login: "renovate[bot]", type: "User" }, "admin", rule, undefined)).toEqual({
      ok: false,
      reason: "bot",
    });
    expect(authorize({ login: "Patchsmith[bot]", type: "Bot" }, "admin", rule, "patchsmith[bot]")).toEqual({
      ok: false,
      reason: "self",
    });
  });

  it("applies a repository's stricter minimum and user list", () => {
    expect(authorize(mia, "write", { minPermission: "maintain" }, undefined)).toEqual({
      ok: false,
      reason: "insufficient-permission",
    });
    expect(authorize(mia, "admin", { minPermission: "write", users: ["Maintainer-Mia"] }, undefined)).toEqual({
      ok: true,
    });
    expect(authorize(mia, "admin", { minPermission: "write", users: ["someone-else"] }, undefined)).toEqual({
      ok: false,
      reason: "not-listed",
    });
    // A user list never lets a reader in.
    expect(authorize(mia, "read", { minPermission: "write", users: ["maintainer-mia"] }, undefined)).toEqual({
      ok: false,
      reason: "insufficient-permission",
    });
  });

  it("explains denials to people only", () => {
    expect(deservesExplanation("insufficient-permission")).toBe(true);
    expect(deservesExplanation("not-listed")).toBe(true);
    expect(deservesExplanation("bot")).toBe(false);
    expect(deservesExplanation("self")).toBe(false);
  });

  it("screens without an API call", () => {
    expect(screenActor(mia, undefined)).toEqual({ ok: true });
  });
});

describe("toPermission", () => {
  it("prefers role_name, falls back to the legacy permission for custom roles", () => {
    expect(toPermission("maintain", "write")).toBe("maintain");
    expect(toPermission("security-reviewer", "read")).toBe("read");
    expect(toPermission(null, "admin")).toBe("admin");
    expect(toPermission(undefined, undefined)).toBe("none");
  });
});
