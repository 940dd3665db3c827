/**
 * Who may trigger work. Decided from the live collaborator permission (never `author_association`, which says
 * nothing about write access), checked when the command arrives and again when the job starts.
 */
import type { Permission } from "../ports/github-gateway.js";

export interface Actor {
  readonly login: string;
  /** GitHub's `user.type`: "User", "Bot" or "Organization". */
  readonly type: string;
}

/** The repository's rule (from `.github/patchsmith.yml`); the floor is always write. */
export interface TriggerRule {
  readonly minPermission: "write" | "maintain" | "admin";
  /** When set, only these logins (case-insensitive), and only if they also have the permission. */
  readonly users?: readonly string[] | undefined;
}

export const DEFAULT_TRIGGER_RULE: TriggerRule = { minPermission: "write" };

export type Denial = "bot" | "self" | "insufficient-permission" | "not-listed";

export type Authorization = { readonly ok: true } | { readonly ok: false; readonly reason: Denial };

const RANK: Record<Permission, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

/** Bots (and this app) never trigger: answers to answers are how bot loops start. Needs no API call. */
export function screenActor(actor: Actor, botLogin: string | undefined): Authorization {
  const login = actor.login.toLowerCase();
  if (botLogin !== undefined && login === botLogin.toLowerCase()) return { ok: false, reason: "self" };
  if (actor.type === "Bot" || login.endsWith("[bot]")) return { ok: false, reason: "bot" };
  return { ok: true };
}

export function authorize(
  actor: Actor,
  permission: Permission,
  rule: TriggerRule,
  botLogin: string | undefined,
): Authorization {
  const screened = screenActor(actor, botLogin);
  if (!screened.ok) return screened;
  const floor = Math.max(RANK.write, RANK[rule.minPermission]);
  if (RANK[permission] < floor) return { ok: false, reason: "insufficient-permission" };
  if (rule.users !== undefined) {
    const allowed = new Set(rule.users.map((user) => user.toLowerCase()));
    if (!allowed.has(actor.login.toLowerCase())) return { ok: false, reason: "not-listed" };
  }
  return { ok: true };
}

/** Denials that deserve an answer: people get a polite note once; bots and the app itself get silence. */
export function deservesExplanation(reason: Denial): boolean {
  return reason === "insufficient-permission" || reason === "not-listed";
}

/** Normalises the permission endpoint's answer (`role_name` knows maintain/triage; `permission` does not). */
export function toPermission(roleName: string | undefined | null, permission: string | undefined | null): Permission {
  for (const value of [roleName, permission]) {
    if (value !== undefined && value !== null && Object.hasOwn(RANK, value)) return value as Permission;
  }
  return "none";
}
