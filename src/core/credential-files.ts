/**
 * Files that hold credentials (pure): never shown to a model (context, lookups, retry prompts) nor changed by an
 * edit, whatever a repository commits; inside the sandbox, masked in the toolchain folders it shows read-only. A
 * repository's `.env` sent to a model provider is a secret gone; its secret values are also redacted wherever a
 * run's text goes (`credentialValues`).
 */

/** File names, wherever they are, that hold credentials. */
export const CREDENTIAL_NAMES = [
  "credentials",
  "credentials.toml",
  ".npmrc",
  ".netrc",
  ".git-credentials",
  ".pypirc",
  "auth.json",
  ".env",
] as const;

/** `.env.local`, `.env.production`…; private keys and key stores by their usual names and extensions. */
const CREDENTIAL_PATTERN = /^(?:\.env\..+|id_(?:rsa|dsa|ecdsa|ed25519)|.+\.(?:pem|key|p12|pfx|jks|keystore))$/i;
/** `.env` files that show the variables a project reads, with placeholder values: committed to be read. */
const TEMPLATE = /^\.env\.(?:example|sample|template|dist|defaults)$/i;

/** Names that hold credentials only at a repository's top (Composer's `auth.json`; elsewhere, `locales/en/auth.json`). */
const TOP_ONLY = new Set(["auth.json"]);

/** Whether a repository path is a file that holds credentials. */
export function isCredentialPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (TEMPLATE.test(name) || (TOP_ONLY.has(name) && name !== path)) return false;
  return (CREDENTIAL_NAMES as readonly string[]).includes(name) || CREDENTIAL_PATTERN.test(name);
}

/** What an edit to such a file is told. */
export const CREDENTIAL_REFUSAL =
  "patchsmith never shows a model, nor changes, a file that may hold credentials (.env files, private keys, " +
  "package manager tokens)";

/** Names of settings whose values are secrets (`API_KEY`, `db_password`, npm's `_authToken`). */
const SECRET_NAME = /key|token|secret|pass(?:word)?|pwd|auth|credential|private|dsn|signature|salt/i;
/**
 * A value that looks generated (long, letters and digits in a token's alphabet) is a secret whatever its name; a
 * URL or a path (`API_URL=http://localhost:3000/api/v1`) is not, and redacting it would hide what tests print.
 */
const GENERATED_VALUE = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9_+=-]{20,}$/;
/** Shorter values are left alone: `DEBUG=true`, `PORT=3000` are no secrets, and redacting them would shred text. */
const MIN_VALUE_LENGTH = 8;

/**
 * The secret values a credential file of the settings kind holds (`.env`, `.npmrc`, `.pypirc`, `.netrc`,
 * `credentials`, `auth.json`): each `name=value`, `name: value` or `"name": "value"` whose name says secret or
 * whose value looks generated, and netrc's passwords. Redacted wherever a run's text goes, and no edit may write
 * them: a test that prints its configuration must not hand them to the model.
 */
export function credentialValues(content: string): string[] {
  const values = new Set<string>();
  const keep = (name: string, value: string): void => {
    if (value.length >= MIN_VALUE_LENGTH && (SECRET_NAME.test(name) || GENERATED_VALUE.test(value))) values.add(value);
  };
  const json = parsedJson(content);
  if (json !== undefined) {
    // Each string under a key, counted as named a secret when a key above it is (`"github-oauth": {host: token}`).
    const walk = (node: unknown, name: string): void => {
      if (typeof node === "string") keep(name, node);
      else if (typeof node === "object" && node !== null)
        for (const [key, child] of Object.entries(node)) walk(child, SECRET_NAME.test(name) ? name : key);
    };
    walk(json, "");
    return [...values];
  }
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.trim().replace(/^export\s+/, "");
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const netrc = /\bpassword\s+(\S+)/.exec(line);
    if (netrc !== null) values.add(netrc[1]!);
    // `=` first (`//registry.npmjs.org/:_authToken=…`), else a `:` that does not start a URL's `//`.
    const at = line.includes("=") ? line.indexOf("=") : line.search(/:(?!\/\/)/);
    if (at <= 0) continue;
    const unquote = (text: string): string =>
      text
        .trim()
        .replace(/,$/, "")
        .trim()
        .replace(/^["']|["']$/g, "");
    keep(unquote(line.slice(0, at)), unquote(line.slice(at + 1)));
  }
  return [...values];
}

/** The content as JSON (Composer's `auth.json`), when it is an object. */
function parsedJson(content: string): object | undefined {
  if (!content.trimStart().startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(content);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
