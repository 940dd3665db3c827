/**
 * Which commit `/undo` reverts (pure): the newest commit on the branch authored by the bot that is not itself a
 * revert and has not been reverted already — so a second `/undo` walks one step further back instead of reverting
 * the revert. The walk stops at the first commit somebody else wrote: below it lie that person's work and, further
 * down, the base branch's history, whose bot commits (merged fixes) are not this branch's to undo.
 */

export interface LogEntry {
  readonly sha: string;
  readonly subject: string;
  readonly body: string;
  readonly authorName: string;
}

const REVERTS = /This reverts commit ([0-9a-f]{7,40})/g;

export function findUndoTarget(log: readonly LogEntry[], botName: string): LogEntry | undefined {
  const reverted = new Set<string>();
  for (const entry of log) {
    if (entry.authorName !== botName) return undefined;
    const shas = [...`${entry.subject}\n${entry.body}`.matchAll(REVERTS)].map((m) => m[1]!);
    if (shas.length > 0) {
      for (const sha of shas) reverted.add(sha);
      continue;
    }
    const alreadyReverted = [...reverted].some((sha) => entry.sha.startsWith(sha));
    if (!alreadyReverted) return entry;
  }
  return undefined;
}
