/**
 * Disk primitives of the file queue (adapters/file-queue.ts): one file per record, never a shared log, because a
 * torn append loses or corrupts its neighbours on kill -9, whereas write-temp + fsync + rename is all-or-nothing.
 *
 * Layout under `root` (folders 0700, files 0600):
 *   jobs/<16-digit sequence>-<sha256(id) prefix>.json   pending or running jobs: {id, group, enqueuedAt, job}
 *   ids/<sha256(id)>, keys/<sha256(key)>                dedupe markers: {at, token?}; their existence is the fact
 *   tmp/                                                 files being written; emptied (or rolled forward) at start
 *   corrupt/                                             records that could not be read back, kept for a human
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, opendir, readFile, rename } from "node:fs/promises";
import path from "node:path";
import { removeIfPresent, syncDir, writeSynced } from "./durable-files.js";
import { createMarker, readMarker } from "./file-queue-markers.js";

export interface QueueLayout {
  readonly root: string;
  readonly jobs: string;
  readonly ids: string;
  readonly keys: string;
  readonly tmp: string;
  readonly corrupt: string;
}

/** What a job file holds; `job` is validated by the caller's `parse` when read back. */
export interface JobRecord {
  readonly id: string;
  readonly group: string;
  readonly enqueuedAt: number;
  readonly job: unknown;
}

const JOB_FILE = /^(\d{16})-([0-9a-f]{16})\.json$/;
const TEMP_JOB_FILE = /^(\d{16}-[0-9a-f]{16}\.json)\.([0-9a-f-]{36})\.tmp$/;
const DIR_MODE = 0o700;

export const hashOf = (text: string): string => createHash("sha256").update(text).digest("hex");

export const jobFileName = (seq: number, idHash: string): string =>
  `${String(seq).padStart(16, "0")}-${idHash.slice(0, 16)}.json`;

export const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export async function prepareLayout(root: string): Promise<QueueLayout> {
  const layout: QueueLayout = {
    root,
    jobs: path.join(root, "jobs"),
    ids: path.join(root, "ids"),
    keys: path.join(root, "keys"),
    tmp: path.join(root, "tmp"),
    corrupt: path.join(root, "corrupt"),
  };
  await mkdir(root, { recursive: true, mode: DIR_MODE });
  for (const sub of [layout.jobs, layout.ids, layout.keys, layout.tmp, layout.corrupt]) {
    await mkdir(sub, { recursive: true, mode: DIR_MODE });
  }
  return layout;
}

/**
 * Adds a job durably. The id marker is the commit point: the record is complete in tmp/ before the marker is linked,
 * so a crash between marker and rename is rolled forward at the next start (recoverTemps) instead of losing a job
 * whose id is already taken. Returns false when the id was taken (by this or another process, now or before).
 */
export async function writeJob(
  layout: QueueLayout,
  seq: number,
  record: JobRecord,
  at: number,
): Promise<string | undefined> {
  const idHash = hashOf(record.id);
  const name = jobFileName(seq, idHash);
  const token = randomUUID();
  const temp = path.join(layout.tmp, `${name}.${token}.tmp`);
  await writeSynced(temp, JSON.stringify(record));
  let committed = false;
  try {
    committed = await createMarker(layout, path.join(layout.ids, idHash), { at, token });
    if (!committed) return undefined;
    await rename(temp, path.join(layout.jobs, name));
    await syncDir(layout.jobs);
    return name;
  } finally {
    if (!committed) await removeIfPresent(temp);
  }
}

export function readRecord(text: string): JobRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { id, group, enqueuedAt, job } = value as Record<string, unknown>;
  if (typeof id !== "string" || typeof group !== "string" || typeof enqueuedAt !== "number") return undefined;
  return { id, group, enqueuedAt, job };
}

/**
 * Finishes or discards what a crashed process left in tmp/: a temp job whose id marker carries its token was
 * committed (renamed into jobs/ now); anything else was never acknowledged to a caller and is removed.
 */
export async function recoverTemps(layout: QueueLayout): Promise<number> {
  let recovered = 0;
  for await (const entry of await opendir(layout.tmp)) {
    const file = path.join(layout.tmp, entry.name);
    const match = TEMP_JOB_FILE.exec(entry.name);
    if (match !== null) {
      const record = readRecord(await readFile(file, "utf8"));
      const marker = record === undefined ? undefined : await readMarker(path.join(layout.ids, hashOf(record.id)));
      if (marker?.token === match[2]) {
        await rename(file, path.join(layout.jobs, match[1]!));
        recovered += 1;
        continue;
      }
    }
    await removeIfPresent(file);
  }
  if (recovered > 0) await syncDir(layout.jobs);
  return recovered;
}

export interface LoadedJob<J> {
  readonly name: string;
  readonly seq: number;
  readonly idHash: string;
  readonly record: JobRecord;
  readonly job: J;
}

export interface CorruptRecord {
  /** Where the record now lies, in corrupt/. */
  readonly file: string;
  readonly reason: string;
}

/** Moves an unreadable record aside under a unique name (sequence numbers restart when jobs/ empties). */
async function quarantine(layout: QueueLayout, name: string, reason: string): Promise<CorruptRecord> {
  const file = path.join(layout.corrupt, `${name}.${randomUUID()}`);
  await rename(path.join(layout.jobs, name), file);
  return { file, reason };
}

async function loadOne<J>(
  layout: QueueLayout,
  name: string,
  parse: (value: unknown) => J | undefined,
): Promise<LoadedJob<J> | string> {
  const match = JOB_FILE.exec(name);
  if (match === null) return "not a job file name";
  let text: string;
  try {
    text = await readFile(path.join(layout.jobs, name), "utf8");
  } catch (error) {
    return `unreadable: ${describeError(error)}`;
  }
  const record = readRecord(text);
  if (record === undefined) return "not a job record (truncated or invalid JSON, or missing id/group/enqueuedAt)";
  const idHash = hashOf(record.id);
  if (!idHash.startsWith(match[2]!)) return "the file name does not match the record's id";
  const job = parse(record.job);
  if (job === undefined) return "the job was rejected by parse";
  return { name, seq: Number(match[1]), idHash, record, job };
}

/** Reads jobs/ in sequence order; records that cannot be read back are quarantined and reported, never dropped. */
export async function loadJobs<J>(
  layout: QueueLayout,
  parse: (value: unknown) => J | undefined,
  onCorrupt: (record: CorruptRecord) => void,
): Promise<LoadedJob<J>[]> {
  const names: string[] = [];
  for await (const entry of await opendir(layout.jobs)) names.push(entry.name);
  names.sort();
  const jobs: LoadedJob<J>[] = [];
  for (const name of names) {
    const loaded = await loadOne(layout, name, parse);
    if (typeof loaded === "string") onCorrupt(await quarantine(layout, name, loaded));
    else jobs.push(loaded);
  }
  return jobs;
}
