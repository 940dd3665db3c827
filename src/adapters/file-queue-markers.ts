/**
 * The file queue's dedupe markers (ids/ and keys/ in file-queue-store.ts's layout): a marker's existence is the
 * fact, its content says when it was made and, for a key, who holds it.
 */
import { randomUUID } from "node:crypto";
import { link, opendir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { removeIfPresent, syncDir, writeSynced } from "./durable-files.js";
import { errorCode } from "./errno.js";
import type { QueueLayout } from "./file-queue-store.js";

/**
 * What an id or key marker holds. `token` ties an id marker to the temp job file of the add that created it;
 * `owner` says who claimed a key.
 */
export interface Marker {
  readonly at: number;
  readonly token?: string;
  readonly owner?: string;
}

/**
 * Creates `target` with `marker` as its content unless it exists. The complete content is written to a temp file
 * first and hard-linked into place: link() fails with EEXIST atomically (like open 'wx', across processes too), and
 * unlike 'wx' a crash can never leave an empty marker behind.
 */
export async function createMarker(layout: QueueLayout, target: string, marker: Marker): Promise<boolean> {
  const temp = path.join(layout.tmp, `${randomUUID()}.mark`);
  await writeSynced(temp, JSON.stringify(marker));
  try {
    await link(temp, target);
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  } finally {
    await removeIfPresent(temp);
  }
  await syncDir(path.dirname(target));
  return true;
}

export const removeMarker = removeIfPresent;

/** Takes a key marker for `owner` unless it exists; returns who holds it ("" for a marker without an owner). */
export async function claimMarker(layout: QueueLayout, target: string, at: number, owner: string): Promise<string> {
  if (await createMarker(layout, target, { at, owner })) return owner;
  return (await readMarker(target))?.owner ?? "";
}

export async function markerExists(target: string): Promise<boolean> {
  try {
    await stat(target);
    return true;
  } catch (error) {
    if (errorCode(error) === "ENOENT") return false;
    throw error;
  }
}

export async function markerOwner(target: string): Promise<string | undefined> {
  return (await readMarker(target))?.owner;
}

export async function readMarker(file: string): Promise<Marker | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(file, "utf8"));
    if (typeof value !== "object" || value === null || !("at" in value) || typeof value.at !== "number")
      return undefined;
    const token = "token" in value && typeof value.token === "string" ? value.token : undefined;
    const owner = "owner" in value && typeof value.owner === "string" ? value.owner : undefined;
    return {
      at: value.at,
      ...(token === undefined ? {} : { token }),
      ...(owner === undefined ? {} : { owner }),
    };
  } catch {
    return undefined;
  }
}

/**
 * Removes markers older than `cutoff`, streaming the folder so memory stays flat however many there are. Markers in
 * `keep` (ids of jobs still pending) stay: forgetting them would let a replay queue the same job twice.
 */
export async function sweepMarkers(dir: string, cutoff: number, keep: ReadonlySet<string>): Promise<number> {
  let swept = 0;
  for await (const entry of await opendir(dir)) {
    if (keep.has(entry.name)) continue;
    const file = path.join(dir, entry.name);
    // A marker from before this format or damaged by hand: its modification time still says how old it is.
    const at =
      (await readMarker(file))?.at ??
      (await stat(file).then(
        (info) => info.mtimeMs,
        () => Infinity,
      ));
    if (at < cutoff) {
      await removeIfPresent(file);
      swept += 1;
    }
  }
  return swept;
}
