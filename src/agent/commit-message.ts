/**
 * Commit messages (pure): a short Conventional-Commits subject the model wrote (`COMMIT: fix(parser): …`), checked,
 * with a deterministic fallback from the instruction and the changed paths; then the attribution trailers.
 */
import type { AppIdentity } from "../ports/github-gateway.js";
import { linesOutsideFences } from "../formats/shared/fences.js";
import { looksLikeBugReport } from "./reproduction.js";
import { isTestPath } from "./test-paths.js";
import type { Identity } from "./types.js";

export const MAX_SUBJECT_LENGTH = 72;

const TYPES = ["feat", "fix", "docs", "style", "refactor", "perf", "test", "build", "ci", "chore", "revert"] as const;
/** A scope names code as the project does: `parser`, `isTaxID`, `core/http`. */
const SCOPE = "[A-Za-z0-9][A-Za-z0-9._/-]*";
const SUBJECT = new RegExp(`^(${TYPES.join("|")})(\\(${SCOPE}\\))?!?: \\S.*$`);
/** A label at the start of a request, as projects name an area in titles: `devtools: …`, `Headers: …`. */
const LABEL = /^([A-Za-z][\w.-]{0,19}): (?=\S)/;
/** A Conventional-Commits head at the start of a request: its type, and its scope if any. */
const WRITTEN_HEAD = new RegExp(`^(${TYPES.join("|")})(?:\\((${SCOPE})\\))?!?: (?=\\S)`, "i");

/** Who the app is when its identity cannot be read: GitHub's name for an app called patchsmith. */
export const FALLBACK_APP: AppIdentity = { slug: "patchsmith", botLogin: "patchsmith[bot]", botUserId: null };

/** Commits are authored by the app's bot account, as GitHub itself writes them. */
export function botIdentity(app: AppIdentity, webHost: string): Identity {
  const user = app.botUserId === null ? app.botLogin : `${app.botUserId}+${app.botLogin}`;
  return { name: app.botLogin, email: `${user}@users.noreply.${webHost}` };
}

export const DEFAULT_BOT_IDENTITY: Identity = botIdentity(FALLBACK_APP, "github.com");

/** The last `COMMIT:` line of a reply, outside code fences, without the label. */
export function extractCommitSubject(reply: string): string | undefined {
  let found: string | undefined;
  for (const line of linesOutsideFences(reply)) {
    const match = /^\s*\**COMMIT\**:\**\s*(.+?)\s*$/.exec(line);
    if (match) found = match[1]!.replace(/^[`"'*]+|[`"'*]+$/g, "").trim();
  }
  return found;
}

export type SubjectCheck =
  { readonly ok: true; readonly subject: string } | { readonly ok: false; readonly why: string };

/** A subject must be one line, at most 72 characters, `type(scope)?: description`. */
export function validateSubject(subject: string): SubjectCheck {
  const trimmed = subject.trim();
  if (trimmed === "") return { ok: false, why: "empty" };
  if (/[\r\n]/.test(trimmed)) return { ok: false, why: "more than one line" };
  if (trimmed.length > MAX_SUBJECT_LENGTH) return { ok: false, why: `longer than ${MAX_SUBJECT_LENGTH} characters` };
  if (!SUBJECT.test(trimmed)) return { ok: false, why: "not of the form type(scope): description" };
  // A subject that starts a line with a bot trigger would make other bots (or us) act on our own commit.
  if (/(^|\s)\/[a-z]/.test(trimmed.slice(trimmed.indexOf(":") + 1)))
    return { ok: false, why: "contains a slash command" };
  return { ok: true, subject: trimmed };
}

// What makes a change a fix: the word itself, or the words of a bug report (one list, reproduction.ts).
const FIX_WORD = /\bfix(es|ed|ing)?\b/i;
const FEATURE_WORDS = /\b(add|implement|support|introduce|create|new)\b/i;
const REFACTOR_WORDS = /\b(refactor|rename|extract|simplify|clean ?up|move)\b/i;
/** A request that opens by asking for something new: its own tests failing first does not make it a fix. */
const FEATURE_REQUEST = /^\s*(add|implement|support|introduce|create|allow|enable)\s+\w/i;

/**
 * What the tests said of the change: it made tests pass that failed before (then it is a fix, unless the request
 * opens by asking for something new).
 */
export interface ChangeFacts {
  readonly fixesFailingTests?: boolean;
}

function commitType(instruction: string, paths: readonly string[], facts: ChangeFacts): (typeof TYPES)[number] {
  const isDoc = (p: string): boolean => /\.(md|rst|txt|adoc)$/i.test(p) || p.startsWith("docs/");
  if (paths.length > 0 && paths.every(isDoc)) return "docs";
  if (paths.length > 0 && paths.every(isTestPath)) return "test";
  if (FIX_WORD.test(instruction) || looksLikeBugReport(instruction)) return "fix";
  if (FEATURE_REQUEST.test(instruction)) return "feat";
  if (facts.fixesFailingTests === true) return "fix";
  if (REFACTOR_WORDS.test(instruction)) return "refactor";
  if (FEATURE_WORDS.test(instruction)) return "feat";
  return "chore";
}

/** File stems and folders that say where code sits, not what it is about: a scope looks past them. */
const GENERIC_STEMS = new Set(["index", "main", "mod", "lib", "__init__", "__main__", "init"]);
const GENERIC_FOLDERS = new Set(["src", "lib", "source", "sources", "pkg", "internal", "packages", "app"]);

/**
 * The scope of a change: the file's stem (`parser` for src/parser.ts), or for an entry file the folder it is the
 * entry of (`a` for packages/a/index.js, none for src/index.ts: "index" names no part of the code); for several
 * files, the deepest folder they share, unless it is only where code sits (`src`).
 */
function commitScope(paths: readonly string[]): string | undefined {
  if (paths.length === 0) return undefined;
  const folders = (p: string): string[] => p.split("/").slice(0, -1);
  const named = (dirs: readonly string[]): string | undefined =>
    [...dirs].reverse().find((dir) => !GENERIC_FOLDERS.has(dir.toLowerCase()));
  let scope: string | undefined;
  if (paths.length === 1) {
    const path = paths[0]!;
    const stem = (path.split("/").pop() ?? path).replace(/\.[^.]*$/, "");
    scope = GENERIC_STEMS.has(stem.toLowerCase()) ? named(folders(path)) : stem;
  } else {
    const [first = [], ...rest] = paths.map(folders);
    let depth = 0;
    while (depth < first.length && rest.every((other) => other[depth] === first[depth])) depth++;
    scope = named(first.slice(0, depth));
  }
  const clean = scope
    ?.toLowerCase()
    .replace(/[^a-z0-9._/-]+/g, "-")
    .replace(/^[^a-z0-9]+|-+$/g, "");
  return clean === undefined || clean === "" || clean.length > 20 ? undefined : clean;
}

/**
 * Markdown's `_emphasis_`: underscores that open before a word and close after one. An underscore inside a name
 * (`INCORRECT_PACKAGE_MAIN`, `parse_args`, `__proto__`) marks nothing and stays.
 */
const EMPHASIS = /(?<![\w])_([^_\s](?:[^_]*[^_\s])?)_(?![\w])/g;

/**
 * Markdown's `**strong**` and `*emphasis*`, opening after a space and closing before one (or punctuation); a `*`
 * that wraps nothing that way (`treat * as any`, a glob's `**`) is text.
 */
const STRONG_OR_EMPHASIS = /(?<=^|[\s(])(\*{1,2})(?=[^\s*])([^*]*?[^\s*])\1(?=$|[\s.,;:!?)])/g;

/** The request without the `/fix` that asked for it. */
const withoutCommand = (instruction: string): string => instruction.replace(/^\s*\/fix\b\s*/i, "");

/** A subject built without the model: type from the instruction's words, scope from the paths. */
export function fallbackSubject(instruction: string, paths: readonly string[], facts: ChangeFacts = {}): string {
  const firstLine = instruction.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  let text = withoutCommand(firstLine)
    .replace(/`/g, "")
    .replace(STRONG_OR_EMPHASIS, "$2")
    .replace(EMPHASIS, "$1")
    .replace(/\s+/g, " ")
    .replace(/[.!\s]+$/, "")
    .trim();
  // A request written as a subject (`fix(isTaxID): …`) keeps its type and its scope as written; one that opens
  // with the scope's own label (`devtools: …`) does not say it twice.
  const written = WRITTEN_HEAD.exec(text);
  const label = written === null ? LABEL.exec(text) : null;
  const type = written?.[1]?.toLowerCase() ?? commitType(withoutCommand(instruction), paths, facts);
  const fromPaths = commitScope(paths);
  const scope = written?.[2] ?? fromPaths ?? label?.[1]?.toLowerCase();
  if (written !== null) text = text.slice(written[0].length);
  else if (label !== null && label[1]!.toLowerCase() === scope) text = text.slice(label[0].length);
  const head = `${type}${scope === undefined ? "" : `(${scope})`}: `;
  // Avoid "fix: fix the parser" when the instruction already starts with the type's verb.
  if (type === "fix") text = text.replace(/^fix(es|ed)?\s+/i, "");
  if (text === "") text = paths.length > 0 ? `update ${paths.join(", ")}` : "apply requested change";
  // A sentence's capital goes (`Trim the …` → `trim the …`); a name keeps its case (`FnvHasher::write`, `URL`,
  // `iOS`).
  if (/^\p{Lu}\p{Ll}*(?![\p{L}\p{N}_:.(<$])/u.test(text)) text = text.charAt(0).toLowerCase() + text.slice(1);
  const room = MAX_SUBJECT_LENGTH - head.length;
  if (text.length > room) {
    const cut = text.slice(0, room - 1);
    const space = cut.lastIndexOf(" ");
    // Cut at a word, without the punctuation that ended it (`surrogates;…`).
    text = `${(space > room / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.!?-]+$/, "")}…`;
  }
  return head + text;
}

/** The model's subject when it passes the checks, else the fallback. */
export function chooseSubject(
  reply: string,
  instruction: string,
  paths: readonly string[],
  facts: ChangeFacts = {},
): string {
  const proposed = extractCommitSubject(reply);
  if (proposed !== undefined) {
    const check = validateSubject(proposed);
    if (check.ok) return check.subject;
  }
  return fallbackSubject(instruction, paths, facts);
}

/** The most of a request a commit's body quotes. */
const MAX_QUOTED_REQUEST = 2000;

/** A text's letters and digits, lower-cased: what two wordings of one sentence share. */
const letters = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/**
 * The request as the commit's body, quoted, when the subject does not say all of it: a request cut to fit the
 * subject, one of several lines, or one the model's own subject words differently would otherwise be lost from the
 * history. Each line is quoted (`> `) so that no line of it reads as a trailer (`Co-authored-by:`, the job's own
 * trailer that a rerun looks for) or as a slash command.
 */
export function requestBody(instruction: string, subject: string): string | undefined {
  const request = withoutCommand(instruction).trim();
  if (request === "") return undefined;
  const described = letters(subject.slice(subject.indexOf(": ") + 2));
  const whole = letters(request);
  // The subject says it all when its description ends the request, after at most a short head the subject
  // replaced (`fix the`, `devtools:`, `fix(parser):`).
  if (!subject.endsWith("…") && described !== "" && whole.endsWith(described) && whole.length - described.length <= 20)
    return undefined;
  const quoted = request.length > MAX_QUOTED_REQUEST ? `${request.slice(0, MAX_QUOTED_REQUEST)}…` : request;
  const lines = quoted.split(/\r?\n/).map((line) => (line.trim() === "" ? ">" : `> ${line.trimEnd()}`));
  return ["Requested:", ...lines].join("\n");
}

/** A trailer value is one line; a newline in it would let a requester forge further trailers. */
const trailerValue = (value: string): string => value.replace(/[\r\n]+/g, " ").trim();

export interface CommitMessageInput {
  readonly subject: string;
  readonly body?: string;
  readonly coAuthor?: string;
  readonly model: string;
  readonly trailers?: Readonly<Record<string, string>>;
}

export function buildCommitMessage(input: CommitMessageInput): string {
  const trailers: string[] = [];
  if (input.coAuthor !== undefined && input.coAuthor.trim() !== "") {
    trailers.push(`Co-authored-by: ${trailerValue(input.coAuthor)}`);
  }
  trailers.push(`Patchsmith-Model: ${trailerValue(input.model)}`);
  for (const [key, value] of Object.entries(input.trailers ?? {})) {
    if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(key)) continue;
    trailers.push(`${key}: ${trailerValue(value)}`);
  }
  const body = input.body?.trim();
  return [input.subject, "", ...(body ? [body, ""] : []), ...trailers, ""].join("\n");
}

/** "Name <email>" → identity, or undefined when malformed. */
export function parseIdentity(text: string): Identity | undefined {
  const match = /^\s*([^<>\r\n]+?)\s*<([^<>\s@]+@[^<>\s@]+)>\s*$/.exec(text);
  return match ? { name: match[1]!, email: match[2]! } : undefined;
}
