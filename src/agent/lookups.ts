/**
 * The model may ask to see more before it edits: files (whole or some lines) and searches of the repository. With
 * an endpoint that takes function tools it calls `read_file` and `search_code`; with any other it writes the small
 * text form below on lines of its own. Each request is answered from the clone, bounded, redacted and wrapped as
 * data; the rounds are bounded by the session (lookup rounds per ask, and the token and time budgets).
 *
 *     READ: path/to/file            the whole file
 *     READ: path/to/file:120-200    some of its lines
 *     SEARCH: some text             lines of the repository that hold it
 */
import { parseReply } from "../formats/registry.js";
import type { Sandbox } from "../ports/git-sandbox.js";
import type { ToolCall, ToolSpec } from "../ports/model-client.js";
import { readText } from "./apply-step.js";
import type { WorkTree } from "./deps.js";
import { renderFile, wrapData } from "./untrusted.js";

export type LookupRequest =
  | { readonly kind: "read"; readonly path: string; readonly start?: number; readonly end?: number }
  | { readonly kind: "search"; readonly text: string };

/** At most this many requests are answered from one reply. */
export const MAX_REQUESTS = 5;
const MAX_READ_CHARS = 60_000;
const MAX_SEARCH_LINES = 40;
const MAX_LINE_CHARS = 200;

export const LOOKUP_PROMPT = [
  "If you need to see more of the repository before you can edit, ask instead of guessing: reply with nothing but",
  "lines `READ: path/to/file` (or `READ: path/to/file:120-200` for some lines) and `SEARCH: some text` (at most " +
    `${String(MAX_REQUESTS)}), and they will be answered; then reply with your edits.`,
].join("\n");

export const LOOKUP_TOOLS: readonly ToolSpec[] = [
  {
    name: "read_file",
    description: "Read a file of the repository, whole or some of its lines, before editing it.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "The file's path from the repository root." },
        start_line: { type: "integer", minimum: 1, description: "First line to read (1-based); default the first." },
        end_line: { type: "integer", minimum: 1, description: "Last line to read; default the last." },
      },
      required: ["path"],
      additionalProperties: false,
    },
  },
  {
    name: "search_code",
    description: "Find the lines of the repository's files that hold a text (case-insensitive).",
    parameters: {
      type: "object",
      properties: { query: { type: "string", description: "The text to look for." } },
      required: ["query"],
      additionalProperties: false,
    },
  },
];

const LINE = /^\s*(?:[-*]\s+)?(READ|SEARCH):\s*(.+?)\s*$/;

/** The text form's requests in a reply (pure); none when the reply is anything else. */
export function parseLookupRequests(reply: string): LookupRequest[] {
  const requests: LookupRequest[] = [];
  for (const line of reply.split("\n")) {
    const match = LINE.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    const value = match[2].replace(/^`|`$/g, "");
    if (match[1] === "SEARCH") {
      requests.push({ kind: "search", text: value });
      continue;
    }
    const range = /^(.+?):(\d+)-(\d+)$/.exec(value);
    requests.push(
      range?.[1] === undefined
        ? { kind: "read", path: value }
        : { kind: "read", path: range[1], start: Number(range[2]), end: Number(range[3]) },
    );
  }
  return requests.slice(0, MAX_REQUESTS);
}

/** The lookups a reply asks for: none when it holds edits (then it is the answer, whatever else it says). */
export function lookupRequestsOf(reply: string): LookupRequest[] {
  const requests = parseLookupRequests(reply);
  return requests.length === 0 || parseReply(reply).length > 0 ? [] : requests;
}

/** A tool call as a request, or why it cannot be one. */
export function requestOfToolCall(call: ToolCall): LookupRequest | string {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments === "" ? "{}" : call.arguments);
  } catch {
    return `the arguments of ${call.name} are not JSON`;
  }
  const record = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  if (call.name === "search_code" && typeof record.query === "string") return { kind: "search", text: record.query };
  if (call.name === "read_file" && typeof record.path === "string") {
    const start = typeof record.start_line === "number" ? record.start_line : undefined;
    const end = typeof record.end_line === "number" ? record.end_line : undefined;
    return {
      kind: "read",
      path: record.path,
      ...(start === undefined ? {} : { start }),
      ...(end === undefined ? {} : { end }),
    };
  }
  return `unknown tool or missing arguments: ${call.name}`;
}

export interface LookupSources {
  readonly tree: WorkTree;
  readonly sandbox: Pick<Sandbox, "searchCode">;
  /** Paths the model may not see: files that may hold credentials (core/credential-files.ts). */
  readonly hidden: (path: string) => boolean;
  readonly redact: (text: string) => string;
}

async function answerRead(sources: LookupSources, request: Extract<LookupRequest, { kind: "read" }>): Promise<string> {
  const path = request.path.replace(/^\.\//, "");
  if (/(^|\/)\.git(\/|$)/.test(path)) return `${path}: not available to read.`;
  if (sources.hidden(path)) return `${path}: not shown: it may hold credentials, and such files never are.`;
  const content = await readText(sources.tree, path);
  if (content === undefined) return `${path}: no such text file in the repository.`;
  const lines = content.split("\n");
  const start = Math.max(1, request.start ?? 1);
  const end = Math.min(lines.length, request.end ?? lines.length);
  if (start > end) return `${path} has ${String(lines.length)} lines; ask for lines within 1-${String(lines.length)}.`;
  let shown = lines.slice(start - 1, end).join("\n");
  let cut = "";
  if (shown.length > MAX_READ_CHARS) {
    shown = shown.slice(0, MAX_READ_CHARS);
    const last = start + shown.split("\n").length - 2;
    cut = `\n(cut at line ${String(last)} of ${String(lines.length)}: ask for READ: ${path}:${String(last + 1)}-${String(end)})`;
  }
  const whole = start === 1 && end === lines.length && cut === "";
  return `${renderFile(path, sources.redact(shown), whole ? undefined : { start, end })}${cut}`;
}

async function answerSearch(sources: LookupSources, text: string): Promise<string> {
  const hits = (await sources.sandbox.searchCode(text, MAX_SEARCH_LINES)).filter((hit) => !sources.hidden(hit.path));
  if (hits.length === 0) return `No line of the repository holds "${text}".`;
  const lines = hits.map((hit) => `${hit.path}:${String(hit.line)}: ${hit.text.trim().slice(0, MAX_LINE_CHARS)}`);
  const more = hits.length >= MAX_SEARCH_LINES ? `\n(the first ${String(MAX_SEARCH_LINES)} lines only)` : "";
  return wrapData(`search ${text}`, `${sources.redact(lines.join("\n"))}${more}`);
}

export function answerLookup(sources: LookupSources, request: LookupRequest): Promise<string> {
  return request.kind === "read" ? answerRead(sources, request) : answerSearch(sources, request.text);
}
