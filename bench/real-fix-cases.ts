/**
 * Real bug-fix commits of real projects, replayed end to end by the real-fixes section: facts only (a repository
 * and a commit), the code is read from a local mirror at run time and never committed. Each commit changes the
 * project's code and its tests; the tests it changed fail before its code change and pass after it.
 */
export interface RealFixCase {
  /** `owner/name`, as the mirror folder `/work/.mirror/<owner>+<name>/repo` is named. */
  readonly repo: string;
  /** The fix commit (a prefix git resolves). */
  readonly commit: string;
  /** What kind of project it is, for the table. */
  readonly kind: string;
}

export const REAL_FIX_CASES: readonly RealFixCase[] = [
  { repo: "minimistjs/minimist", commit: "de53490", kind: "Node, tape, nyc, eslint pretest" },
  { repo: "sindresorhus/camelcase", commit: "e7dccc9", kind: "Node ESM, xo && ava && tsd" },
  { repo: "psf/requests", commit: "f0198e6d", kind: "Python src layout, pytest, tests needing the network" },
  { repo: "pallets/flask", commit: "e82db2ca", kind: "Python src layout, flit_core, dependency groups" },
  { repo: "pallets/click", commit: "762c97ee", kind: "Python src layout, flit_core, pre-commit Ruff" },
  { repo: "more-itertools/more-itertools", commit: "f51a53b", kind: "Python flat layout, unittest, requirements/" },
  { repo: "tj/commander.js", commit: "2e96cd38", kind: "Node, Jest, ESLint, TypeScript typings" },
  { repo: "expressjs/express", commit: "18e5985b", kind: "Node, Mocha, supertest" },
  { repo: "python-attrs/attrs", commit: "97f8d175", kind: "Python src layout, hatchling and hatch-vcs, pytest" },
  { repo: "tkem/cachetools", commit: "57d2e48", kind: "Python src layout, setuptools, pytest" },
  { repo: "unjs/defu", commit: "11ba022", kind: "Node ESM, pnpm through corepack, oxlint, tsgo, Vitest" },
  { repo: "npm/node-semver", commit: "9c8692a", kind: "Node, tap" },
  { repo: "yargs/yargs-parser", commit: "60f2db5", kind: "TypeScript compiled before Mocha" },
  { repo: "pytest-dev/pluggy", commit: "20d8143", kind: "Python src layout, setuptools-scm, pytest" },
  { repo: "hukkin/tomli", commit: "9e56735", kind: "Python src layout, flit, unittest" },
  { repo: "jshttp/cookie", commit: "71798d7", kind: "Node, TypeScript, Vitest" },
  { repo: "python-jsonschema/jsonschema", commit: "8cff13d0", kind: "Python, hatch-vcs, Rust-built dependencies" },
  { repo: "remarkjs/remark", commit: "81b24ecd", kind: "Node, 2019, lerna monorepo" },
  { repo: "iamkun/dayjs", commit: "dad46e6f", kind: "Node, Jest with Babel" },
];
