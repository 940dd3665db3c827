/**
 * Stable reason codes for a refused edit. Callers branch on these; never rename one.
 * New codes keep the kebab-case style and are documented here and in the README.
 */
export const REASONS = {
  "search-not-found": "The SEARCH text (or a hunk's old lines) does not occur in the file, even loosely.",
  "ambiguous-match": "The text occurs at two or more places on the first rung that found it; nothing was changed.",
  "hunk-context-mismatch": "A diff hunk's context and removed lines do not occur in the file.",
  "already-applied":
    "The edit only adds lines, and they already stand beside the lines it quotes: applied again, they would be " +
    "written twice; nothing was changed.",
  "missing-original": "An update, delete or move names a file that does not exist.",
  "invalid-format": "The block cannot be parsed, is truncated, or uses an elision that would delete code.",
  "unsafe-path": "The path is absolute, climbs out of the root with '..', or goes through a symlink that leaves it.",
  "file-exists": "A creation or move targets a path that already exists; creation never overwrites.",
  "binary-file": "The file is not text (it holds NUL bytes or is not valid UTF-8); the engine does not edit it.",
  "unreadable-file": "The file exists but cannot be read (permissions, a directory, a special file).",
  "forbidden-path":
    "The path is protected by the caller (e.g. `.github/workflows/**` for the GitHub App); it is left unchanged.",
  "not-applied": "The edit itself was fine, but the reply is one transaction and another edit failed.",
  "secret-refused":
    "The edit would write a secret the caller holds (an API key or token, or an encoding of one); it was not applied.",
  "no-edits":
    "The reply holds no recognisable edit (no SEARCH/REPLACE block, diff, apply_patch envelope or whole file with " +
    "its path); nothing was changed.",
} as const;

export type Reason = keyof typeof REASONS;

export const isReason = (value: string): value is Reason => Object.hasOwn(REASONS, value);
