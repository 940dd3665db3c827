/**
 * Who sandboxed commands run as. Under a root service: a dedicated unprivileged user and group, never root —
 * `PATCHSMITH_SANDBOX_USER` (a name from /etc/passwd, or `uid:gid`), else the `patchsmith-sandbox` account when it
 * exists (the Docker image creates it), else uid and gid 64500, which no distribution assigns. Under any other
 * user: that user itself, inside a user namespace (an unprivileged process cannot become anyone else).
 */
import { readFile } from "node:fs/promises";
import { HOME_INSIDE, type SandboxUser } from "./bwrap-plan.js";

export const DEFAULT_SANDBOX_ACCOUNT = "patchsmith-sandbox";
export const FALLBACK_SANDBOX_ID = 64_500;

/** uid and gid of a passwd line's account, or undefined. Pure. */
export function lookupAccount(passwd: string, name: string): { uid: number; gid: number } | undefined {
  for (const line of passwd.split("\n")) {
    const [user, , uid, gid] = line.split(":");
    if (user === name && uid !== undefined && gid !== undefined && /^\d+$/.test(uid) && /^\d+$/.test(gid)) {
      return { uid: Number(uid), gid: Number(gid) };
    }
  }
  return undefined;
}

export type SandboxUserResult =
  { readonly ok: true; readonly user: SandboxUser } | { readonly ok: false; readonly message: string };

/** Pure: the setting, the passwd file's text and our own ids → the sandbox user. */
export function chooseSandboxUser(
  setting: string | undefined,
  passwd: string,
  self: { readonly uid: number; readonly gid: number },
): SandboxUserResult {
  if (self.uid !== 0) return { ok: true, user: { uid: self.uid, gid: self.gid, privileged: false } };
  const wanted = setting?.trim() ?? "";
  if (wanted !== "") {
    const ids = /^(\d+):(\d+)$/.exec(wanted);
    const found = ids !== null ? { uid: Number(ids[1]), gid: Number(ids[2]) } : lookupAccount(passwd, wanted);
    if (found === undefined) {
      return {
        ok: false,
        message: `PATCHSMITH_SANDBOX_USER=${wanted} is neither uid:gid nor an account in /etc/passwd`,
      };
    }
    if (found.uid === 0 || found.gid === 0) {
      return { ok: false, message: "PATCHSMITH_SANDBOX_USER must not be root: the sandbox user is never root" };
    }
    return { ok: true, user: { ...found, privileged: true } };
  }
  const account = lookupAccount(passwd, DEFAULT_SANDBOX_ACCOUNT);
  const ids = account ?? { uid: FALLBACK_SANDBOX_ID, gid: FALLBACK_SANDBOX_ID };
  return { ok: true, user: { ...ids, privileged: true } };
}

export async function resolveSandboxUser(setting: string | undefined): Promise<SandboxUserResult> {
  const passwd = await readFile("/etc/passwd", "utf8").catch(() => "");
  const self = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  return chooseSandboxUser(setting, passwd, self);
}

/** The passwd and group files the sandbox sees: root, the sandbox user, nobody. Pure. */
export function identityFiles(user: SandboxUser): { readonly passwd: string; readonly group: string } {
  const home = HOME_INSIDE;
  const lines = [
    "root:x:0:0:root:/root:/usr/sbin/nologin",
    ...(user.uid === 0 ? [] : [`sandbox:x:${String(user.uid)}:${String(user.gid)}:patchsmith sandbox:${home}:/bin/sh`]),
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin",
  ];
  const groups = ["root:x:0:", ...(user.gid === 0 ? [] : [`sandbox:x:${String(user.gid)}:`]), "nogroup:x:65534:"];
  return { passwd: `${lines.join("\n")}\n`, group: `${groups.join("\n")}\n` };
}
