import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bitsFor, unreadableBy } from "../../../src/adapters/sandbox/readable-by.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("bitsFor", () => {
  it("takes the owner's, the group's or everyone's bits, as the kernel does", () => {
    const owner = { uid: 10, gid: 20 };
    expect(bitsFor(0o750, owner, { uid: 10, gid: 99 })).toBe(7);
    expect(bitsFor(0o750, owner, { uid: 11, gid: 20 })).toBe(5);
    expect(bitsFor(0o750, owner, { uid: 11, gid: 21 })).toBe(0);
  });
});

describe("unreadableBy", () => {
  const stranger = { uid: 64_500, gid: 64_500 };

  it("names a folder another user may not enter, and what lies under it, but not a readable one", async () => {
    const base = mkdtempSync(join(tmpdir(), "patchsmith-readable-"));
    made.push(base);
    chmodSync(base, 0o755);
    const open = join(base, "open");
    const closed = join(base, "closed");
    mkdirSync(open, { mode: 0o755 });
    mkdirSync(closed, { mode: 0o700 });
    chmodSync(closed, 0o700);
    const inner = join(closed, "wheels");
    mkdirSync(inner, { mode: 0o755 });
    const secret = join(open, "constraints.txt");
    writeFileSync(secret, "attrs<24\n", { mode: 0o600 });
    chmodSync(secret, 0o600);
    const listed = [open, closed, inner, secret, join(base, "absent")];
    expect(await unreadableBy(listed, stranger)).toEqual([closed, inner, secret]);
    // Root reads everything; the owner its own.
    expect(await unreadableBy(listed, { uid: 0, gid: 0 })).toEqual([]);
  });
});
