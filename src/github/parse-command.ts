/**
 * Finds patchsmith commands in a comment body. A command counts only at the start of a line (up to three spaces of
 * indentation, as Markdown allows) and never inside a block quote, a fenced or indented code block, or an HTML
 * comment: quoting someone's `/fix` or hiding one in invisible markup must not trigger work.
 */

export type Command =
  | { readonly kind: "fix"; readonly instructions: string; readonly suggest: boolean }
  | { readonly kind: "undo" }
  | { readonly kind: "help" };

export interface FoundCommand {
  readonly command: Command;
  /** 1-based line of the command in the body. */
  readonly line: number;
  /** A normalised form, stable across whitespace edits: the identity used to tell a new command from an old one. */
  readonly key: string;
}

const COMMAND_LINE = /^ {0,3}\/(fix|undo|help)(?=$|[ \t])(.*)$/i;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/** Lines that can carry a command: each visible, unquoted, outside code; others are null (kept for numbering). */
function visibleLines(body: string): (string | null)[] {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const out: (string | null)[] = [];
  let fence: string | null = null;
  let inHtmlComment = false;
  let previousBlank = true;
  for (const line of lines) {
    if (fence !== null) {
      // A fence closes with at least as many of the same characters and nothing else on the line.
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close?.[1] !== undefined && close[1][0] === fence[0] && close[1].length >= fence.length) fence = null;
      out.push(null);
      continue;
    }
    if (inHtmlComment) {
      if (line.includes("-->")) inHtmlComment = false;
      out.push(null);
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open?.[1] !== undefined) {
      fence = open[1];
      out.push(null);
      previousBlank = false;
      continue;
    }
    const commentStart = line.indexOf("<!--");
    if (commentStart !== -1 && !line.includes("-->", commentStart + 4)) inHtmlComment = true;
    const quoted = /^ {0,3}>/.test(line);
    const indentedCode = previousBlank && /^( {4}|\t)/.test(line);
    out.push(quoted || indentedCode || /^\s*<!--/.test(line) ? null : line);
    previousBlank = line.trim() === "";
  }
  return out;
}

function toCommand(word: string, rest: string, following: readonly string[]): Command {
  switch (word.toLowerCase()) {
    case "undo":
      return { kind: "undo" };
    case "help":
      return { kind: "help" };
    default: {
      let text = rest.trim();
      let suggest = false;
      if (/^--suggest(?=$|\s)/.test(text)) {
        suggest = true;
        text = text.slice("--suggest".length).trim();
      }
      // Instructions may continue on the lines below the command, up to the next command.
      const more = following.join("\n").trim();
      const instructions = [text, more].filter((part) => part !== "").join("\n");
      return { kind: "fix", instructions, suggest };
    }
  }
}

function keyOf(command: Command): string {
  if (command.kind !== "fix") return command.kind;
  const words = command.instructions.replace(/\s+/g, " ").trim();
  return `fix${command.suggest ? " --suggest" : ""} ${words}`.trim();
}

/** Every command in the body, in order. */
export function findCommands(body: string): FoundCommand[] {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const visible = visibleLines(body);
  const starts: { index: number; word: string; rest: string }[] = [];
  visible.forEach((line, index) => {
    const match = line === null ? null : COMMAND_LINE.exec(line);
    if (match?.[1] !== undefined) starts.push({ index, word: match[1], rest: match[2] ?? "" });
  });
  return starts.map((start, i) => {
    const end = starts[i + 1]?.index ?? lines.length;
    const command = toCommand(start.word, start.rest, lines.slice(start.index + 1, end));
    return { command, line: start.index + 1, key: keyOf(command) };
  });
}

/**
 * The command to run for a comment: the first one for a new comment; for an edited comment, the first command
 * whose key was not in the previous body (so fixing a typo elsewhere in the comment does not run it again).
 */
export function selectCommand(body: string, previousBody?: string | null): FoundCommand | undefined {
  const found = findCommands(body);
  if (previousBody === undefined || previousBody === null) return found[0];
  const before = new Set(findCommands(previousBody).map((c) => c.key));
  return found.find((c) => !before.has(c.key));
}

/** The command as people wrote it, for the progress comment's title. */
export function describeCommand(command: Command): string {
  switch (command.kind) {
    case "fix": {
      const first = command.instructions.split("\n")[0] ?? "";
      const short = first.length > 60 ? `${first.slice(0, 57)}…` : first;
      return `/fix${command.suggest ? " --suggest" : ""}${short === "" ? "" : ` ${short}`}`;
    }
    case "undo":
      return "/undo";
    case "help":
      return "/help";
  }
}
