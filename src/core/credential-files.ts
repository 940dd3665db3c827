/**
 * Files that hold credentials (pure): never shown to a model (context, lookups, retry prompts) nor changed by an
 * edit, whatever a repository commits; inside the sandbox, masked in the toolchain folders it shows read-only. A
 * repository's `.env` sent to a model provider is a secret gone, and no redaction knows its values in advance.
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
