/**
 * Root confinement on the path text alone (pure): every path an edit names is turned into a clean relative path
 * ("src/a.ts") or refused with a message the model can act on. Symlinks are the filesystem adapter's concern.
 */

export type PathCheck = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string };

const refuse = (raw: string, why: string): PathCheck => ({
  ok: false,
  message: `the path ${JSON.stringify(raw)} ${why}; name the file relative to the repository root, e.g. src/app.ts`,
});

// Control characters are never part of a real file name a model means; they are usually a parsing accident.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Normalises `./`, duplicate slashes and backslashes, resolves `..` that stays inside the root, and refuses
 * absolute paths (POSIX, drive letters, UNC), escapes above the root, empty paths, folders and git internals.
 */
export function normalizeRelativePath(raw: string): PathCheck {
  if (raw.includes("\0")) return refuse(raw, "contains a NUL byte");
  if (CONTROL.test(raw)) return refuse(raw, "contains a control character (a newline or tab?)");
  const trimmed = raw.trim();
  if (trimmed === "") return refuse(raw, "is empty");
  // Windows separators are accepted because models write them; on POSIX a backslash in a name is almost never meant.
  const slashed = trimmed.replaceAll("\\", "/");
  if (slashed.startsWith("/")) return refuse(raw, "is absolute");
  if (/^[A-Za-z]:/.test(slashed)) return refuse(raw, "is absolute (it starts with a drive letter)");
  if (slashed === "~" || slashed.startsWith("~/")) return refuse(raw, "points into a home folder");
  if (slashed.endsWith("/")) return refuse(raw, "names a folder, not a file");

  const kept: string[] = [];
  for (const segment of slashed.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (kept.length === 0) return refuse(raw, "climbs out of the repository root with '..'");
      kept.pop();
      continue;
    }
    // `.git` internals (hooks, config) would let an edit run code on the next git command; case-insensitive
    // because macOS and Windows file systems are.
    if (segment.toLowerCase() === ".git")
      return refuse(raw, "points into git's own .git folder, which edits may not touch");
    kept.push(segment);
  }
  if (kept.length === 0) return refuse(raw, "names the repository root, not a file");
  return { ok: true, path: kept.join("/") };
}
