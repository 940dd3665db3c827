/**
 * The loop's bounds (pure): attempts, tokens and wall time. Checked between steps, never in the middle of one, so
 * a stop always leaves the clone in a state the report can describe. The one exception is a model call, which
 * Session bounds by what is left of the wall time (a cancelled call changes nothing in the clone).
 */
import type { Usage } from "./types.js";

export interface Limits {
  readonly maxAttempts: number;
  readonly tokenBudget: number;
  readonly wallTimeMs: number;
}

export const DEFAULT_LIMITS: Limits = { maxAttempts: 3, tokenBudget: 200_000, wallTimeMs: 20 * 60_000 };

export const NO_USAGE: Usage = { calls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 };

export type BudgetStop =
  | { readonly reason: "max-attempts"; readonly message: string }
  | { readonly reason: "token-budget"; readonly message: string }
  | { readonly reason: "wall-time"; readonly message: string };

export interface BudgetState {
  readonly attemptsUsed: number;
  readonly usage: Usage;
  readonly startedAt: number;
}

/** Limits from a request, with defaults; nonsense values (0, negative, NaN) fall back to the default. */
export function resolveLimits(request: { maxAttempts?: number; tokenBudget?: number; wallTimeMs?: number }): Limits {
  const pick = (value: number | undefined, fallback: number): number =>
    value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
  return {
    maxAttempts: Math.floor(pick(request.maxAttempts, DEFAULT_LIMITS.maxAttempts)),
    tokenBudget: pick(request.tokenBudget, DEFAULT_LIMITS.tokenBudget),
    wallTimeMs: pick(request.wallTimeMs, DEFAULT_LIMITS.wallTimeMs),
  };
}

/** `estimatedCalls` appears only when some figure was estimated, so reports of honest endpoints do not change. */
function withEstimated(usage: Omit<Usage, "estimatedCalls">, estimatedCalls: number): Usage {
  return estimatedCalls > 0 ? { ...usage, estimatedCalls } : usage;
}

/** A cost only when some call had one, so reports of unpriced models do not change. */
function costOf(a: number | undefined, b: number | undefined, sign = 1): { costUsd?: number } {
  return a === undefined && b === undefined ? {} : { costUsd: (a ?? 0) + sign * (b ?? 0) };
}

export function addUsage(a: Usage, b: Omit<Usage, "calls"> & { calls?: number }): Usage {
  return withEstimated(
    {
      calls: a.calls + (b.calls ?? 1),
      promptTokens: a.promptTokens + b.promptTokens,
      completionTokens: a.completionTokens + b.completionTokens,
      totalTokens: a.totalTokens + b.totalTokens,
      ...costOf(a.costUsd, b.costUsd),
    },
    (a.estimatedCalls ?? 0) + (b.estimatedCalls ?? 0),
  );
}

/** What was used between two readings of the running total. */
export const usageSince = (earlier: Usage, later: Usage): Usage =>
  withEstimated(
    {
      calls: later.calls - earlier.calls,
      promptTokens: later.promptTokens - earlier.promptTokens,
      completionTokens: later.completionTokens - earlier.completionTokens,
      totalTokens: later.totalTokens - earlier.totalTokens,
      ...costOf(later.costUsd, earlier.costUsd, -1),
    },
    (later.estimatedCalls ?? 0) - (earlier.estimatedCalls ?? 0),
  );

/** The stop for a spent time budget; also used when the deadline cut a model call short. */
export function wallTimeStop(limits: Limits, elapsedMs: number): BudgetStop {
  return {
    reason: "wall-time",
    message: `The time budget is spent: ${Math.round(elapsedMs / 1000)} s of ${Math.round(limits.wallTimeMs / 1000)} s.`,
  };
}

/** Time and tokens only: may the loop make one more model call? */
export function checkSpend(limits: Limits, state: BudgetState, now: number): BudgetStop | undefined {
  if (state.usage.totalTokens >= limits.tokenBudget) {
    return {
      reason: "token-budget",
      message: `The token budget is spent: ${state.usage.totalTokens} of ${limits.tokenBudget} tokens used.`,
    };
  }
  const elapsed = now - state.startedAt;
  return elapsed >= limits.wallTimeMs ? wallTimeStop(limits, elapsed) : undefined;
}

/** Attempts, then time and tokens: may the loop start another attempt? */
export function checkBudget(limits: Limits, state: BudgetState, now: number): BudgetStop | undefined {
  if (state.attemptsUsed >= limits.maxAttempts) {
    return {
      reason: "max-attempts",
      message:
        limits.maxAttempts === 1
          ? "The one attempt allowed was used without a change that passes the tests."
          : `All ${limits.maxAttempts} attempts were used without a change that passes the tests.`,
    };
  }
  return checkSpend(limits, state, now);
}

/** Milliseconds left of the wall-time budget (never negative). */
export const remainingMs = (limits: Limits, state: BudgetState, now: number): number =>
  Math.max(0, limits.wallTimeMs - (now - state.startedAt));
