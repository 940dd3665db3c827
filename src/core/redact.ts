/**
 * Secret hygiene, pure: everything that leaves the process (comments, logs, errors, test output, the environment a
 * repository's tests see) passes through here.
 */

export const REDACTED = "[redacted]";

/** Shorter known secrets are ignored: replacing a 3-character "secret" everywhere would shred ordinary text. */
const MIN_SECRET_LENGTH = 6;

/** Token shapes redacted even when nobody told us the value. Order matters: the widest shapes first. */
const SECRET_SHAPES: ReadonlyArray<readonly [RegExp, string]> = [
  // A PEM block, or its beginning when the text was cut mid-key.
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g, REDACTED],
  // Authorization headers, whatever the scheme.
  [/(authorization:\s*)(?:basic|bearer|token)\s+[^\s"'<>]+/gi, `$1${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]{16,}=*/g, `$1 ${REDACTED}`],
  // Credentials in URLs (https://user:token@host) and git's token user.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, `$1${REDACTED}@`],
  [/x-access-token:[^\s@'"]+/g, `x-access-token:${REDACTED}`],
  // GitHub tokens: classic and fine-grained.
  [/\bgh[pousr]_[A-Za-z0-9]{20,255}\b/g, REDACTED],
  [/\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g, REDACTED],
  // OpenAI-style keys (sk-..., sk-proj-...).
  [/\bsk-[A-Za-z0-9_-]{20,}/g, REDACTED],
  // AWS access key ids.
  [/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, REDACTED],
];

/**
 * Whether a URL names a user before its host, with or without a password (`https://u:p@host`, `https://token@host`):
 * the shape a package index or registry setting carries its credentials in. Such a setting is not handed to code
 * patchsmith runs (the sandbox's package settings).
 */
export const carriesUrlCredentials = (value: string): boolean => /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]+@/i.test(value);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A secret as it may travel: itself, base64 (padded and unpadded), base64url, URL-encoded. A model or a test that
 * was shown an encoded key could write it back in that form.
 */
export function secretForms(secret: string): string[] {
  const base64 = Buffer.from(secret, "utf8").toString("base64");
  const forms = [secret, base64, base64.replace(/=+$/, ""), Buffer.from(secret, "utf8").toString("base64url")];
  forms.push(encodeURIComponent(secret));
  return [...new Set(forms)].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

function knownPattern(secrets: readonly string[]): RegExp | undefined {
  const known = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH).flatMap(secretForms))].sort(
    (a, b) => b.length - a.length,
  );
  return known.length === 0 ? undefined : new RegExp(known.map(escapeRegExp).join("|"), "g");
}

/** True when `text` holds one of the known secret values, in any of its forms (the token shapes do not count). */
export function containsSecret(text: string, secrets: readonly string[]): boolean {
  const pattern = knownPattern(secrets);
  return pattern !== undefined && pattern.test(text);
}

/** Replaces known secret values (and their encodings) and common token shapes with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  const pattern = knownPattern(secrets);
  if (pattern !== undefined) out = out.replace(pattern, REDACTED);
  for (const [pattern, replacement] of SECRET_SHAPES) {
    out = out.replace(pattern, replacement);
  }
  return out;
}

/** Variables a test command may see by default: enough to find toolchains, nothing that authenticates. */
export const DEFAULT_ENV_ALLOW_LIST: readonly string[] = [
  "PATH",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  // Toolchain locations: without them pyenv/rustup/go shims cannot find their installs once HOME moves.
  "PYENV_ROOT",
  "PYENV_VERSION",
  "VIRTUAL_ENV",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "RUSTUP_TOOLCHAIN",
  "GOROOT",
  "GOPATH",
  "JAVA_HOME",
];

const SECRET_NAME = /TOKEN|SECRET|KEY|PASSWORD|PASSWD|PRIVATE|CREDENTIAL|AUTH|SESSION|COOKIE/i;
const FORBIDDEN_PREFIX = /^(?:OPENAI_|GITHUB_|GH_|PATCHSMITH_|WEBHOOK|APP_ID$)/i;

/** True when a variable's name says it may carry a secret or one of our own settings. */
export function isSecretEnvName(name: string): boolean {
  return SECRET_NAME.test(name) || FORBIDDEN_PREFIX.test(name);
}

/**
 * The environment reduced to the allow-list, minus anything whose name looks secret (even when allow-listed by a
 * caller's extra names). Values that carry a known token shape are dropped too.
 */
export function scrubEnv(
  env: Readonly<Record<string, string | undefined>>,
  allow: readonly string[] = DEFAULT_ENV_ALLOW_LIST,
): Record<string, string> {
  const allowed = new Set(allow);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !allowed.has(name) || isSecretEnvName(name)) continue;
    if (redactSecrets(value) !== value) continue;
    out[name] = value;
  }
  return out;
}
