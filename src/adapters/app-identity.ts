/** Who the app is on GitHub (its slug, its bot account), read once per process and shared by every gateway. */
import type { AppIdentity } from "../ports/github-gateway.js";
import type { Octokit } from "./octokit-gateway.js";

/** The app's identity; `users` is a client that may read user accounts (an installation's). */
export type IdentityLoader = (users?: () => Promise<Octokit>) => Promise<AppIdentity>;

/** The fallback identity: what GitHub calls an app named patchsmith. */
export const DEFAULT_SLUG = "patchsmith";

/** Told about a lookup that failed and was replaced by a fallback (to log it). */
export type IdentityWarning = (what: string, error: unknown) => void;

/**
 * Reads the app's slug once (app JWT), and its bot account's id once an installation client is at hand (the users
 * endpoint does not accept an app JWT). Never fails: both are cosmetic (commit author, self-recognition by name),
 * so a missing endpoint gives `patchsmith[bot]` without an id, and the next call tries again.
 */
export function createIdentityLoader(
  app: () => Promise<Octokit>,
  warn: IdentityWarning = () => undefined,
): IdentityLoader {
  let slug: Promise<string> | undefined;
  let botUserId: number | null = null;
  return async (users) => {
    const reading = (slug ??= app()
      .then(async (o) => {
        const data = (await o.rest.apps.getAuthenticated()).data as { slug?: string | null } | null;
        return typeof data?.slug === "string" && data.slug !== "" ? data.slug : DEFAULT_SLUG;
      })
      .catch((error: unknown) => {
        slug = undefined;
        warn("read the app's slug (GET /app)", error);
        return DEFAULT_SLUG;
      }));
    const name = await reading;
    const botLogin = `${name}[bot]`;
    if (botUserId === null && users !== undefined) {
      try {
        const { data } = await (await users()).rest.users.getByUsername({ username: botLogin });
        botUserId = typeof data.id === "number" ? data.id : null;
      } catch (error) {
        warn(`read the bot account's id (GET /users/${botLogin})`, error);
      }
    }
    return { slug: name, botLogin, botUserId };
  };
}
