/**
 * What of the host a sandboxed command may see, found once per process: the system's program and library folders,
 * a short list of `/etc` entries programs need to start and to verify TLS, and the toolchains on PATH that live
 * outside the system folders (pyenv, rustup, a Node or JDK unpacked under /opt). Everything else stays invisible:
 * the service's home, /run and /var/run (host sockets), the host's /tmp, the data folder, other clones.
 */
import { access, constants, lstat, readlink, realpath, stat } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { CREDENTIAL_NAMES } from "../../core/credential-files.js";
import { readPackageSettings, type PackageSettings } from "./package-settings.js";

/** Folders mounted read-only as they are (or re-created as the same symlink, on merged-/usr systems). */
export const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] as const;

/**
 * `/etc` entries a program may need: name resolution (for the egress proxy's clients nothing, but libc reads these
 * at start), the dynamic linker's cache, CA certificates, time zones, Debian's alternatives, interpreters' site
 * files. Never `shadow`, `sudoers`, the host's `passwd` (a minimal one is written per run), or package managers'
 * credentials.
 */
export const ETC_ALLOW = [
  "/etc/hosts",
  "/etc/resolv.conf",
  "/etc/nsswitch.conf",
  "/etc/host.conf",
  "/etc/gai.conf",
  "/etc/services",
  "/etc/protocols",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/ca-certificates.conf",
  "/etc/pki",
  "/etc/crypto-policies",
  "/etc/alternatives",
  "/etc/mime.types",
  "/etc/os-release",
  "/etc/debian_version",
  "/etc/locale.alias",
  "/etc/python3",
  "/etc/python3.9",
  "/etc/python3.10",
  "/etc/python3.11",
  "/etc/python3.12",
  "/etc/python3.13",
  "/etc/java-17-openjdk",
  "/etc/java-21-openjdk",
  "/etc/maven",
] as const;

export interface SystemDir {
  readonly path: string;
  /** Set when the host has the path as a symlink (e.g. `/bin -> usr/bin`): re-created as the same link. */
  readonly symlink?: string;
}

export interface ReadOnlyMount {
  readonly path: string;
  /** Files inside it replaced by an empty file (credentials a toolchain folder may hold). */
  readonly masks: readonly string[];
}

export interface HostView {
  readonly systemDirs: readonly SystemDir[];
  readonly etc: readonly string[];
  /** Toolchains outside the system folders, and the operator's extra read-only folders. */
  readonly toolchains: readonly ReadOnlyMount[];
  /** The host's PATH entries that stay visible inside, in order. */
  readonly path: readonly string[];
  /** Toolchain variables that still make sense inside (PYENV_ROOT, RUSTUP_HOME, JAVA_HOME, GOROOT...). */
  readonly env: Readonly<Record<string, string>>;
  /** Where the host's pip and npm get packages from (package-settings.ts). */
  readonly packageSettings: PackageSettings;
}

export interface HostViewInput {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  /** The Node binary running patchsmith (the egress forwarder inside the sandbox runs on it). */
  readonly execPath: string;
  /** Operator's extra read-only folders (PATCHSMITH_SANDBOX_READONLY). */
  readonly extraReadOnly: readonly string[];
}

const TOOLCHAIN_VARIABLES = ["PYENV_ROOT", "RUSTUP_HOME", "JAVA_HOME", "GOROOT", "NVM_DIR", "VOLTA_HOME"] as const;

/**
 * Where the host says which certificate authorities to trust (an enterprise CA, a TLS-inspecting proxy): paths to
 * public certificates, passed on with the file shown read-only, so that set-up verifies TLS as the host does.
 */
const CERTIFICATE_VARIABLES = [
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "PIP_CERT",
  "CURL_CA_BUNDLE",
  "GIT_SSL_CAINFO",
  "CARGO_HTTP_CAINFO",
  "NPM_CONFIG_CAFILE",
  "npm_config_cafile",
] as const;

const under = (path: string, dir: string): boolean =>
  path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

async function realOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function systemDirs(): Promise<SystemDir[]> {
  const found: SystemDir[] = [];
  for (const path of SYSTEM_DIRS) {
    try {
      const info = await lstat(path);
      if (info.isSymbolicLink()) found.push({ path, symlink: await readlink(path) });
      else if (info.isDirectory()) found.push({ path });
    } catch {
      // Not on this host.
    }
  }
  return found;
}

async function existing(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) if ((await realOrUndefined(path)) !== undefined) out.push(path);
  return out;
}

/**
 * The folder to show for a PATH entry outside the system folders: a `bin` folder's prefix (`/opt/node/bin` →
 * `/opt/node`, where its `lib` lives), unless that prefix is the home folder itself or `/`.
 */
export function toolchainRoot(entry: string, home: string): string {
  const parent = dirname(entry);
  if (!entry.endsWith(`${sep}bin`) || parent === home || parent === "/" || parent === dirname(home)) return entry;
  return parent;
}

const inSystem = (path: string, system: readonly SystemDir[]): boolean =>
  system.some((dir) => dir.symlink === undefined && under(path, dir.path));

async function credentialMasks(root: string): Promise<string[]> {
  const masks: string[] = [];
  for (const name of CREDENTIAL_NAMES) {
    const candidate = join(root, name);
    try {
      if ((await lstat(candidate)).isFile()) masks.push(candidate);
    } catch {
      // Absent.
    }
  }
  return masks;
}

/** The toolchain variables' folders and the PATH entries outside the system folders, as read-only mounts. */
async function findToolchains(input: HostViewInput, system: readonly SystemDir[]) {
  const roots: string[] = [];
  const env: Record<string, string> = {};
  const add = (root: string): void => {
    if (root === input.home || root === "/" || inSystem(root, system) || roots.some((r) => under(root, r))) return;
    for (let i = roots.length - 1; i >= 0; i--) if (under(roots[i]!, root)) roots.splice(i, 1);
    roots.push(root);
  };
  for (const name of TOOLCHAIN_VARIABLES) {
    const value = input.env[name];
    const real = value === undefined || value === "" ? undefined : await realOrUndefined(value);
    if (real === undefined || !(await isDirectory(real))) continue;
    add(real);
    env[name] = value!;
  }
  const entries = (input.env.PATH ?? "").split(":").filter((p) => p.startsWith("/"));
  const reals = new Map<string, string>();
  for (const entry of [...entries, dirname(input.execPath)]) {
    const real = await realOrUndefined(entry);
    if (real === undefined || !(await isDirectory(real))) continue;
    reals.set(entry, real);
    if (inSystem(real, system)) continue;
    add(toolchainRoot(real, input.home));
    // pyenv's shims run `pyenv exec`, which needs the whole root; rustup's proxies in ~/.cargo/bin find their
    // toolchains in RUSTUP_HOME (default ~/.rustup).
    const pyenv = join(input.home, ".pyenv");
    if (under(real, pyenv) && env.PYENV_ROOT === undefined) {
      add(pyenv);
      env.PYENV_ROOT = pyenv;
    }
    const rustup = join(input.home, ".rustup");
    if (real === join(input.home, ".cargo", "bin") && env.RUSTUP_HOME === undefined && (await isDirectory(rustup))) {
      add(rustup);
      env.RUSTUP_HOME = rustup;
    }
  }
  for (const extra of input.extraReadOnly) {
    const real = await realOrUndefined(extra);
    if (real !== undefined) add(real);
  }
  const visible = (real: string): boolean => inSystem(real, system) || roots.some((root) => under(real, root));
  const path = [...new Set(entries.filter((entry) => reals.has(entry) && visible(reals.get(entry)!)))];
  const toolchains: ReadOnlyMount[] = [];
  for (const root of roots) toolchains.push({ path: root, masks: await credentialMasks(root) });
  return { toolchains, env, path };
}

/** The certificate variables whose files exist, and mounts for those no other mount shows. */
async function findCertificates(
  input: HostViewInput,
  shown: (real: string) => boolean,
): Promise<{ mounts: ReadOnlyMount[]; env: Record<string, string> }> {
  const mounts: ReadOnlyMount[] = [];
  const env: Record<string, string> = {};
  for (const name of CERTIFICATE_VARIABLES) {
    const value = input.env[name];
    const real = value === undefined || value === "" ? undefined : await realOrUndefined(value);
    if (real === undefined) continue;
    if (!shown(real) && !mounts.some((m) => under(real, m.path))) mounts.push({ path: real, masks: [] });
    env[name] = shown(value!) ? value! : real;
  }
  return { mounts, env };
}

/** Read-only mounts of the host paths that exist and no other mount shows, outermost first, none inside another. */
async function localMounts(paths: readonly string[], shown: (real: string) => boolean): Promise<ReadOnlyMount[]> {
  const reals: string[] = [];
  for (const path of paths) {
    const real = await realOrUndefined(path);
    if (real !== undefined && real !== "/" && !shown(real)) reals.push(real);
  }
  const outer = reals.filter((p, i) => !reals.some((q, j) => j !== i && under(p, q) && (p !== q || j < i)));
  const mounts: ReadOnlyMount[] = [];
  for (const path of outer.sort())
    mounts.push({ path, masks: (await isDirectory(path)) ? await credentialMasks(path) : [] });
  return mounts;
}

export async function readHostView(input: HostViewInput): Promise<HostView> {
  const system = await systemDirs();
  const { toolchains, env, path } = await findToolchains(input, system);
  const etc = await existing(ETC_ALLOW);
  const shown = (p: string): boolean =>
    inSystem(p, system) || etc.some((e) => under(p, e)) || toolchains.some((t) => under(p, t.path));
  const certificates = await findCertificates(input, shown);
  const packageSettings = await readPackageSettings(input.env, input.home);
  const packageMounts = await localMounts(
    packageSettings.paths,
    (p) => shown(p) || certificates.mounts.some((m) => under(p, m.path)),
  );
  return {
    systemDirs: system,
    etc,
    toolchains: [...toolchains, ...certificates.mounts, ...packageMounts],
    path,
    env: { ...env, ...certificates.env },
    packageSettings,
  };
}

/** The absolute path of a program on PATH (or the path itself when it has a slash), or undefined. */
export async function findProgram(name: string, pathVariable: string | undefined): Promise<string | undefined> {
  const candidates = name.includes("/")
    ? [name]
    : (pathVariable ?? "")
        .split(":")
        .filter((d) => d !== "")
        .map((d) => join(d, name));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}
