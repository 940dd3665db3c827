/** Where a repository is (pure): a URL (`scheme://…`, or scp-like `user@host:path`), or else a local path. */
export function isRemoteUrl(repo: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(repo) || /^[^/\\\s]+@[^/\\\s:]+:/.test(repo);
}
