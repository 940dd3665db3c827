/** Branch names (pure): the `patchsmith/<slug>` default and the checks every name from outside goes through. */

const MAX_SLUG = 40;

/** A short, lowercase, dash-separated slug of the instruction's first words; "change" when nothing is left. */
export function slugify(instruction: string): string {
  const words = instruction
    .replace(/^\s*\/fix\b/i, "")
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > MAX_SLUG) {
      if (slug === "") slug = word.slice(0, MAX_SLUG);
      break;
    }
    slug = next;
  }
  return slug === "" ? "change" : slug;
}

export type BranchCheck = { readonly ok: true } | { readonly ok: false; readonly why: string };

/**
 * git's ref-name rules (check-ref-format) plus ours: no leading `-` (it would read as an option), no `..`, `@{`,
 * control characters, spaces, `~^:?*[\`, no `.lock` or `/` at the end, no empty or dot-led segment.
 */
export function checkBranchName(name: string): BranchCheck {
  const bad = (why: string): BranchCheck => ({ ok: false, why });
  if (name === "" || name.length > 200) return bad("must have 1 to 200 characters");
  if (name.startsWith("-")) return bad("must not start with '-'");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return bad("contains a space, control character or one of ~^:?*[\\");
  if (name.includes("..") || name.includes("@{") || name === "@") return bad("contains '..' or '@{'");
  if (name.endsWith("/") || name.endsWith(".") || name.endsWith(".lock")) return bad("ends with '/', '.' or '.lock'");
  if (name.split("/").some((s) => s === "" || s.startsWith("."))) return bad("has an empty or dot-led segment");
  return { ok: true };
}

/** The branch the commits go on: `into`, else `patchsmith/<slug>`. */
export const targetBranch = (instruction: string, into: string | undefined): string =>
  into ?? `patchsmith/${slugify(instruction)}`;
