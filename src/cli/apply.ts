/**
 * `patchsmith apply [--root DIR] [--format F] [--dry-run] [--partial] [--json] [REPLY|-]`: applies a model reply's
 * edits to a folder. Exit 0 when every edit applied, 1 when any failed or the reply has none, 2 on usage errors.
 */
import { readFile, stat } from "node:fs/promises";
import { parseArgs } from "node:util";
import { FORMAT_NAMES } from "../core/edit.js";
import { looksBinary } from "../core/text.js";
import { applyReply, type ApplyReport } from "../engine.js";
import type { FormatChoice } from "../formats/registry.js";
import { renderHuman, renderJson } from "./render-apply.js";

/** Larger replies are not model output; refusing them keeps memory bounded. */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;

const FORMATS: readonly FormatChoice[] = ["auto", ...FORMAT_NAMES];
const isFormat = (value: string): value is FormatChoice => (FORMATS as readonly string[]).includes(value);

const SYNOPSIS =
  "usage: patchsmith apply [--root DIR] [--format auto|editblock|udiff|patch|whole] [--dry-run] [--partial] [--json] [REPLY|-]\n";

const HELP = `${SYNOPSIS}
Applies the edits in a model reply (SEARCH/REPLACE blocks, unified diffs, apply_patch envelopes or whole files)
to the files under --root (default: the current folder). REPLY is a file; '-' or nothing reads stdin.

  --root DIR      the folder edits are confined to
  --format F      parse only this dialect (default auto: detected per block)
  --dry-run       show what would change, write nothing
  --partial       keep the edits that applied even if others failed (default: all or nothing)
  --json          print {"results":[{ok,path,reason?,message?,strategy?}],"written":[...],"summary":...}

exit status: 0 every edit applied, 1 some failed, no edits found or an internal error, 2 usage error
`;

class UsageError extends Error {}

type ReadResult = { ok: true; bytes: Buffer } | { ok: false; message: string };

async function readStdin(): Promise<ReadResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_REPLY_BYTES) return { ok: false, message: `the reply on stdin is larger than 8 MiB` };
    chunks.push(buffer);
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}

async function readReplyFile(file: string): Promise<ReadResult> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return { ok: false, message: `REPLY '${file}' is not a file` };
    if (info.size > MAX_REPLY_BYTES) return { ok: false, message: `REPLY '${file}' is larger than 8 MiB` };
    return { ok: true, bytes: await readFile(file) };
  } catch (error) {
    const why =
      error instanceof Error && "code" in error && error.code === "ENOENT" ? "does not exist" : "cannot be read";
    return { ok: false, message: `REPLY '${file}' ${why}` };
  }
}

async function readReply(source: string | undefined): Promise<string> {
  if ((source === undefined || source === "-") && process.stdin.isTTY) {
    throw new UsageError("no REPLY file given and stdin is a terminal; pass a file or pipe the reply in");
  }
  const read = source === undefined || source === "-" ? await readStdin() : await readReplyFile(source);
  if (!read.ok) throw new UsageError(read.message);
  if (looksBinary(read.bytes)) throw new UsageError("the reply is not text (it holds NUL bytes or invalid UTF-8)");
  const text = read.bytes.toString("utf8");
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

interface Options {
  readonly root: string;
  readonly format: FormatChoice;
  readonly dryRun: boolean;
  readonly partial: boolean;
  readonly json: boolean;
  readonly reply: string | undefined;
}

async function parseOptions(argv: string[]): Promise<Options | "help"> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        root: { type: "string" },
        format: { type: "string" },
        "dry-run": { type: "boolean" },
        partial: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true) return "help";
  const format = values.format ?? "auto";
  if (!isFormat(format)) throw new UsageError(`unknown --format '${format}' (expected ${FORMATS.join(", ")})`);
  if (positionals.length > 1) throw new UsageError(`expected at most one REPLY, got ${positionals.length}`);
  const root = values.root ?? ".";
  const info = await stat(root).catch(() => undefined);
  if (info === undefined) throw new UsageError(`--root '${root}' does not exist`);
  if (!info.isDirectory()) throw new UsageError(`--root '${root}' is not a folder`);
  return {
    root,
    format,
    dryRun: values["dry-run"] === true,
    partial: values.partial === true,
    json: values.json === true,
    reply: positionals[0],
  };
}

const useColor = (): boolean => process.stdout.isTTY && process.env["NO_COLOR"] === undefined;

export async function run(argv: string[]): Promise<number> {
  let options: Options | "help";
  let reply: string;
  try {
    options = await parseOptions(argv);
    if (options === "help") {
      process.stdout.write(HELP);
      return 0;
    }
    reply = await readReply(options.reply);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`patchsmith apply: ${error.message}\n${SYNOPSIS}`);
    return 2;
  }

  const report: ApplyReport = await applyReply(reply, {
    root: options.root,
    format: options.format,
    dryRun: options.dryRun,
    partial: options.partial,
  });
  process.stdout.write(options.json ? renderJson(report) : renderHuman(report, { color: useColor() }));
  return report.results.every((r) => r.ok) ? 0 : 1;
}
