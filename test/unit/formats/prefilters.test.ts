/**
 * The fence and elision checks skip their regexes when one cheap look at the line rules a match out. These
 * properties pin that the shortcuts change no answer: each check must agree with its regex-only definition (copied
 * here as the oracle) on random lines built from the characters the shortcuts and the regexes care about.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isBareEllipsis,
  isCommentElision,
  isElision,
  isSuspectedElision,
} from "../../../src/formats/shared/elision.js";
import { parseFenceLine, type FenceLine } from "../../../src/formats/shared/fences.js";

// ---- The regex-only definitions, as they were before the shortcuts. ----

const FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;

function fenceOracle(line: string): FenceLine | undefined {
  const m = FENCE.exec(line);
  if (!m) return undefined;
  const marks = m[2]!;
  const info = m[3]!.trim();
  const char = marks[0] === "~" ? "~" : "`";
  if (char === "`" && info.includes("`")) return undefined;
  return { char, length: marks.length, indent: m[1]!.length, info };
}

const ELLIPSIS = /\.\.\.|…/;
const COMMENT = /^(?:\/\/+|#+|--|;+|%+|\{?\/\*+|<!--)\s*(.*?)\s*(?:\*+\/\}?|-->)?$/;
const ELIDED_PHRASE =
  /^[([]?\s*(?:(?:the\s+)?rest\s+of\s+(?:the\s+)?(?:file|code|class|function|method|module|component|implementation|imports|body)(?:\s+(?:is\s+)?(?:unchanged|stays?\s+the\s+same|remains?\s+(?:the\s+same|unchanged)|as\s+(?:is|before)))?|existing\s+code(?:\s+(?:here|unchanged|stays?\s+the\s+same))?|(?:unchanged|remaining|other|previous)\s+code(?:\s+unchanged)?|code\s+unchanged)\s*[)\]]?\.?$/i;
const ELIDED_WORDS = /\b(?:existing|rest|unchanged|remaining|omitted|same|previous)\b/i;
const LEAD_WORDS = /\b(?:existing|rest|unchanged|remaining|omitted|same|previous|other|code)\b/i;
const LEADING_ELLIPSIS = /^(?:\.\.\.|…)\s*/;
const TRAILING_ELLIPSIS = /(?:\.\.\.|…)\s*[)\]]?$/;

function bareOracle(line: string): boolean {
  const t = line.trim();
  return t === "..." || t === "…";
}

function commentOracle(line: string): boolean {
  const m = COMMENT.exec(line.trim());
  if (!m) return false;
  const body = m[1]!;
  if (body === "") return false;
  if (ELIDED_PHRASE.test(body)) return true;
  if (!ELLIPSIS.test(body)) return false;
  const trailing = TRAILING_ELLIPSIS.test(body);
  const leading = LEADING_ELLIPSIS.exec(body);
  if (leading) {
    const rest = body.slice(leading[0].length);
    return rest === "" || trailing || LEAD_WORDS.test(rest);
  }
  return ELIDED_WORDS.test(body) && trailing;
}

function suspectedOracle(line: string, path: string | undefined): boolean {
  const elision = bareOracle(line) ? !(path !== undefined && /\.pyi?$/i.test(path)) : commentOracle(line);
  if (elision) return true;
  const m = COMMENT.exec(line.trim());
  return m !== null && LEADING_ELLIPSIS.test(m[1]!);
}

// ---- Lines from the pieces that matter: whitespace of every kind, openers, closers, ellipses, key words. ----

const piece = fc.oneof(
  fc.constantFrom(" ", "  ", "\t", "\u00a0", "\u2028", "\ufeff", "\r", "\v"),
  fc.constantFrom("`", "```", "````", "~", "~~~", "``` diff", "~~~python"),
  fc.constantFrom("/", "//", "#", "-", "--", ";", "%", "{", "{/*", "/*", "*/", "*/}", "<!--", "-->", "<", "*"),
  fc.constantFrom("...", "…", ".", "(", ")", "[", "]"),
  fc.constantFrom("rest", "REST", "code", "Code", "of the", "file", "existing", "unchanged", "other", "same", "x"),
  fc.constantFrom(" existing code", " rest of the file", " code unchanged", " other code", " Rest of file as is"),
  fc.string({ maxLength: 3 }),
);
const line = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(""));
const path = fc.constantFrom(undefined, "a.py", "b.ts");

describe("shortcuts agree with the regex-only checks", () => {
  it("parseFenceLine", () => {
    fc.assert(
      fc.property(line, (l) => {
        expect(parseFenceLine(l)).toEqual(fenceOracle(l));
      }),
      { numRuns: 5000 },
    );
  });

  it("isBareEllipsis, isCommentElision, isElision and isSuspectedElision", () => {
    fc.assert(
      fc.property(line, path, (l, p) => {
        expect(isBareEllipsis(l)).toBe(bareOracle(l));
        expect(isCommentElision(l)).toBe(commentOracle(l));
        expect(isElision(l, p)).toBe(bareOracle(l) ? !(p !== undefined && p.endsWith(".py")) : commentOracle(l));
        expect(isSuspectedElision(l, p)).toBe(suspectedOracle(l, p));
      }),
      { numRuns: 5000 },
    );
  });

  it("on the lines the shortcuts look at most closely", () => {
    // Fixed examples next to the random ones: a whitespace other than space/tab before the opener, a lone
    // indentation, a key word only in upper case, an elision with its key word but no ellipsis.
    const lines = [
      "\u00a0```diff",
      "\u00a0// ...",
      "  \u2028// ...",
      "\t",
      "   ",
      "",
      "// REST OF THE FILE",
      "# Existing code here",
      "-- remaining code",
      "{/* … */}",
      "<!-- rest of file unchanged -->",
      "  ... ",
      "x // ...",
    ];
    for (const l of lines) {
      expect(parseFenceLine(l), l).toEqual(fenceOracle(l));
      expect(isBareEllipsis(l), l).toBe(bareOracle(l));
      expect(isCommentElision(l), l).toBe(commentOracle(l));
      expect(isSuspectedElision(l, undefined), l).toBe(suspectedOracle(l, undefined));
    }
  });
});
