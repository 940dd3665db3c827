/**
 * Which hosts set-up may reach (pure). Install scripts are untrusted code, so set-up gets no network of its own: it
 * reaches the outside only through a proxy that admits the package registries (and what the operator adds with
 * PATCHSMITH_SETUP_HOSTS). A name that resolves to a loopback, private or link-local address (a host's Redis, the
 * App itself, a cloud metadata service) is refused unless the operator named exactly that host.
 */
import { isIP } from "node:net";

/**
 * The public registries of the package managers set-up runs (npm, Yarn, pnpm through corepack, pip, Go, Cargo), and
 * JSR's npm-compatible registry, which a project's `.npmrc` names for its `@jsr/` packages (date-fns does).
 */
export const DEFAULT_SETUP_HOSTS = [
  "registry.npmjs.org",
  "npm.jsr.io",
  "registry.yarnpkg.com",
  "repo.yarnpkg.com",
  "nodejs.org",
  "pypi.org",
  "files.pythonhosted.org",
  "proxy.golang.org",
  "sum.golang.org",
  "index.crates.io",
  "static.crates.io",
  "crates.io",
  "github.com",
  "codeload.github.com",
  "objects.githubusercontent.com",
] as const;

export interface EgressRule {
  /** A host name or address, lower case; `*.example.com` for subdomains; `*` for every public host. */
  readonly host: string;
  /** undefined: any port. */
  readonly port?: number;
}

/** "host", "host:port", "[::1]:port", "*.suffix", "*"; comma or whitespace separated. Unreadable entries are errors. */
export function parseEgressRules(text: string): { readonly rules: EgressRule[]; readonly errors: string[] } {
  const rules: EgressRule[] = [];
  const errors: string[] = [];
  for (const entry of text.split(/[\s,]+/).filter((e) => e !== "")) {
    const match = /^(\[[0-9a-f:.]+\]|[a-z0-9*._-]+)(?::(\d{1,5}))?$/i.exec(entry);
    const host = match?.[1]?.replace(/^\[|\]$/g, "").toLowerCase();
    const port = match?.[2] === undefined ? undefined : Number(match[2]);
    const badWildcard = host?.includes("*") === true && host !== "*" && !/^\*\.[^*]+$/.test(host);
    if (host === undefined || badWildcard || (port !== undefined && (port < 1 || port > 65535))) {
      errors.push(entry);
      continue;
    }
    rules.push(port === undefined ? { host } : { host, port });
  }
  return { rules, errors };
}

/**
 * The hosts of the http(s) URLs in `values` (whitespace-separated lists allowed), as exact rules on their ports: the
 * registries the host's own package settings name, which set-up is sent to and so may reach.
 */
export function urlHosts(values: readonly string[]): EgressRule[] {
  const rules = new Map<string, EgressRule>();
  for (const item of values.flatMap((value) => value.split(/\s+/))) {
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      continue;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") continue;
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
    rules.set(`${host}:${String(port)}`, { host, port });
  }
  return [...rules.values()];
}

export type EgressDecision =
  /** Allowed; `exact` when a rule names this host itself (then even a private address is fine). */
  { readonly allowed: true; readonly exact: boolean } | { readonly allowed: false };

export function decideEgress(rules: readonly EgressRule[], host: string, port: number): EgressDecision {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  let wildcard = false;
  for (const rule of rules) {
    if (rule.port !== undefined && rule.port !== port) continue;
    if (rule.host === name) return { allowed: true, exact: true };
    if (rule.host === "*" || (rule.host.startsWith("*.") && name.endsWith(rule.host.slice(1)))) wildcard = true;
  }
  return wildcard ? { allowed: true, exact: false } : { allowed: false };
}

/** Loopback, private, link-local, unique-local, unspecified, CGNAT and metadata addresses: never by wildcard. */
export function isInternalAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) {
    const [a = 0, b = 0] = address.split(".").map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (kind === 6) {
    const lower = address.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    if (mapped?.[1] !== undefined) return isInternalAddress(mapped[1]);
    return lower === "::" || lower === "::1" || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || /^ff/.test(lower);
  }
  return true;
}

/** The registries, on HTTPS only. */
export const DEFAULT_SETUP_RULES: readonly EgressRule[] = DEFAULT_SETUP_HOSTS.map((host) => ({ host, port: 443 }));
