/** Every case, in category order. */
import type { CaseSpec } from "../spec.js";
import { ALREADY_APPLIED, NOT_FOUND } from "./absent.js";
import { AMBIGUITY } from "./ambiguity.js";
import { BOMS, FINAL_NEWLINES } from "./bom-newline.js";
import { COLLISION, CREATION } from "./creation.js";
import { PATH_DECORATION, WHOLE_FILE } from "./decoration-whole.js";
import { DELETION } from "./deletion.js";
import { DIALECTS } from "./dialects.js";
import { ELISION } from "./elision.js";
import { EXACT } from "./exact.js";
import { FUZZY } from "./fuzzy.js";
import { HINT_DRIFT } from "./hint-drift.js";
import { INDENTATION } from "./indentation.js";
import { LINE_ENDINGS } from "./line-endings.js";
import { MISSING, MOVE } from "./moves.js";
import { MULTI_FILE } from "./multi-file.js";
import { PATH_SAFETY } from "./path-safety.js";
import { SEQUENTIAL } from "./sequential.js";
import { STALE } from "./stale.js";
import { INVALID_FORMAT, TRANSACTION } from "./transaction-invalid.js";
import { UNICODE } from "./unicode.js";
import { WHITESPACE } from "./whitespace.js";

export const ALL_CASES: readonly CaseSpec[] = [
  ...EXACT,
  ...LINE_ENDINGS,
  ...BOMS,
  ...FINAL_NEWLINES,
  ...WHITESPACE,
  ...INDENTATION,
  ...UNICODE,
  ...ELISION,
  ...STALE,
  ...HINT_DRIFT,
  ...DIALECTS,
  ...FUZZY,
  ...AMBIGUITY,
  ...NOT_FOUND,
  ...ALREADY_APPLIED,
  ...CREATION,
  ...COLLISION,
  ...DELETION,
  ...MOVE,
  ...MISSING,
  ...PATH_SAFETY,
  ...SEQUENTIAL,
  ...MULTI_FILE,
  ...TRANSACTION,
  ...INVALID_FORMAT,
  ...PATH_DECORATION,
  ...WHOLE_FILE,
];
