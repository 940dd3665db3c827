/**
 * Whether a Node.js of this version sends its own fetch (and http) through HTTP(S)_PROXY when NODE_USE_ENV_PROXY=1
 * is set: from 22.21 and 24 on. Older versions ignore the variable, and their fetch goes direct.
 */
export function fetchUsesEnvProxy(version: string = process.version): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  return major >= 24 || (major === 22 && minor >= 21);
}
