/**
 * The interface every dialect implements, so the registry can drive one pass over the reply's lines and stay
 * ignorant of each grammar.
 */
import type { FormatName, ParsedItem } from "../core/edit.js";
import type { FenceLine } from "./shared/fences.js";

/** A fenced block the registry entered because its body holds a dialect's block. */
export interface OpenFence {
  readonly fence: FenceLine;
  /** 0-based index of the opening fence line. */
  readonly line: number;
  /** The path named by the info string or the line above the fence, if any. */
  readonly path: string | undefined;
}

/**
 * The files a reply may name by a bare file name ("app.ts" above a block): a Set, or a lookup that asks the file
 * system only for the names a reply mentions (no walk of a large tree per reply).
 */
export interface PathLookup {
  has(path: string): boolean;
}

export interface ScanContext {
  /** The reply's lines, `\r` stripped. */
  readonly lines: readonly string[];
  readonly knownPaths: PathLookup | undefined;
  /** State carried from block to block within one reply. */
  readonly state: {
    /** Path of the last SEARCH/REPLACE block, inherited by a next one that names none and sits next to it. */
    lastSearchReplacePath: string | undefined;
    /** Opening line of the fence that held the last SEARCH/REPLACE block. */
    lastSearchReplaceFence: number | undefined;
    /** Index of the first line after the last SEARCH/REPLACE block. */
    lastSearchReplaceEnd: number | undefined;
  };
}

/** What a dialect parsed from a block: its items in reply order and the index of the first line after it. */
export interface BlockParse {
  readonly items: ParsedItem[];
  readonly next: number;
}

export interface Dialect {
  readonly name: FormatName;
  /** The text that teaches a model this dialect. */
  readonly prompt: string;
  /** True when one of this dialect's blocks starts at line `index` (0-based), inside `fence` when given. */
  startsAt(ctx: ScanContext, index: number, fence: OpenFence | undefined): boolean;
  /** Parses the block that starts at `index`; never throws, always advances. */
  parseAt(ctx: ScanContext, index: number, fence: OpenFence | undefined): BlockParse;
  /**
   * A problem for a line outside any block that looks like one of this dialect's markers but is not one: the
   * model meant a block there, and passing over it as prose would drop that edit without a word.
   */
  strayAt?(ctx: ScanContext, index: number): ParsedItem | undefined;
}
