import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataFolderBusy, currentHolder, lockDataFolder, stillRuns } from "../../../src/adapters/data-folder-lock.js";

const folders: string[] = [];
const children: Array<{ kill: () => void }> = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "patchsmith-lock-"));
  folders.push(dir);
  return dir;
}

/** A process that runs until the test ends: another holder that is alive. */
function liveOther(): number {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  children.push({ kill: () => child.kill("SIGKILL") });
  return child.pid!;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return Number(spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" }).stdout.trim());
}

describe("the data folder lock", () => {
  it("refuses a second holder while the first runs, naming it, and frees the folder on release", async () => {
    const dir = folder();
    const other = currentHolder(liveOther());
    const theirs = await lockDataFolder(dir, other);
    const refused = await lockDataFolder(dir).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DataFolderBusy);
    expect((refused as Error).message).toContain(`pid ${String(other.pid)}`);
    expect((refused as Error).message).toContain(dir);
    await theirs.release();
    const mine = await lockDataFolder(dir);
    await mine.release();
  });

  it("takes over at once the lock of a process that no longer runs, or an unreadable one", async () => {
    const dir = folder();
    const dead = currentHolder(deadPid());
    // Written as the dead process would have, with a start time it no longer has.
    writeFileSync(join(dir, "patchsmith.lock"), JSON.stringify({ ...dead, startTicks: "12345" }));
    expect(stillRuns({ ...dead, startTicks: "12345" })).toBe(false);
    const mine = await lockDataFolder(dir);
    expect(JSON.parse(readFileSync(join(dir, "patchsmith.lock"), "utf8"))).toMatchObject({ pid: process.pid });
    await mine.release();
    writeFileSync(join(dir, "patchsmith.lock"), "{half a lock");
    await (await lockDataFolder(dir)).release();
  });

  it("tells a reused pid from its first owner by the start time, and another boot by its id", () => {
    const me = currentHolder();
    expect(stillRuns(me)).toBe(true);
    expect(stillRuns({ ...me, startTicks: `${me.startTicks}0` })).toBe(false);
    expect(stillRuns({ ...me, bootId: "another-boot" })).toBe(false);
  });

  it("releases only its own lock, never one a later process took over", async () => {
    const dir = folder();
    const mine = await lockDataFolder(dir);
    const later = JSON.stringify(currentHolder(liveOther()));
    writeFileSync(join(dir, "patchsmith.lock"), later);
    await mine.release();
    expect(readFileSync(join(dir, "patchsmith.lock"), "utf8")).toBe(later);
  });
});
