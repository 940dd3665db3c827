/** patchsmith's library API: the edit engine (parse → locate → apply) and the model-readable feedback. */
export { applyEdits, applyReply } from "./engine.js";
export type { ApplyReplyOptions, ApplyReport, EngineOptions, EngineResult, ReadFile } from "./engine.js";
export { parseReply } from "./formats/registry.js";
export type { FormatChoice } from "./formats/registry.js";
export { renderRetryPrompt } from "./apply/feedback-retry.js";
export { planEdits } from "./apply/plan.js";
export type { Plan, PlanOptions } from "./apply/plan.js";
export type { FileSnapshot, FileState } from "./apply/snapshot.js";
export { normalizeRelativePath } from "./apply/paths.js";
export { REASONS, isReason } from "./core/reasons.js";
export type { Reason } from "./core/reasons.js";
export type {
  CreateEdit,
  DeleteEdit,
  Edit,
  EditHint,
  EditOrigin,
  FormatName,
  LineOp,
  ParsedItem,
  ParseProblem,
  RenameEdit,
  ReplaceEdit,
  RewriteEdit,
} from "./core/edit.js";
export type { AppliedEdit, EditResult, FailedEdit, Strategy } from "./core/result.js";
