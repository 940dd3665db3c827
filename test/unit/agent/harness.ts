/** Builds FixDeps from the in-memory fakes for the loop's unit tests. */
import type { FixDeps } from "../../../src/agent/deps.js";
import { detectTestCommand } from "../../../src/agent/test-command.js";
import type { TestSummary } from "../../../src/agent/types.js";
import { MemoryGitFactory, type MemorySandbox } from "../../fakes/ports/memory-sandbox.js";
import {
  ManualClock,
  MemoryLogger,
  ScriptedModel,
  ScriptedTests,
  summary,
  type Reply,
} from "../../fakes/ports/scripted.js";

/** The test command detected for a package.json holding these scripts alone. */
export const npmWithScripts = (scripts: Record<string, string>) =>
  detectTestCommand({
    paths: ["package.json"],
    read: (p) => (p === "package.json" ? JSON.stringify({ scripts }) : undefined),
  });

export const BUGGY = "export function add(a, b) {\n  return a - b;\n}\n";
export const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";

export const NODE_REPO: Record<string, string> = {
  "package.json": JSON.stringify({ name: "m", scripts: { test: "node --test" } }, null, 2),
  "src/math.js": BUGGY,
  "src/util.js": "import { add } from './math.js';\nexport const twice = (x) => add(x, x);\n",
  "test/math.test.js": "import { add } from '../src/math.js';\n// add(1, 2) === 3\n",
  ".github/workflows/ci.yml": "on: push\n",
};

export function editBlock(path: string, search: string, replace: string, commit?: string): string {
  const lines = [path, "```", "<<<<<<< SEARCH", search, "=======", replace, ">>>>>>> REPLACE", "```"];
  if (commit !== undefined) lines.push(`COMMIT: ${commit}`);
  return lines.join("\n");
}

export const FIX_REPLY = editBlock(
  "src/math.js",
  "  return a - b;",
  "  return a + b;",
  "fix(math): add numbers instead of subtracting",
);

export interface Harness {
  readonly deps: FixDeps;
  readonly git: MemoryGitFactory;
  readonly model: ScriptedModel;
  readonly tests: ScriptedTests;
  readonly clock: ManualClock;
  readonly logger: MemoryLogger;
  sandbox(): MemorySandbox;
}

/** `decide` sees the clone's working tree; default: "math adds" fails until src/math.js is fixed. */
export function harness(
  options: {
    files?: Record<string, string>;
    replies?: readonly Reply[];
    tokensPerCall?: number;
    decide?: (work: ReadonlyMap<string, string>, command: string) => TestSummary;
    secrets?: readonly string[];
  } = {},
): Harness {
  const git = new MemoryGitFactory(options.files ?? NODE_REPO);
  const model = new ScriptedModel(options.replies ?? [FIX_REPLY], options.tokensPerCall);
  const decide =
    options.decide ??
    ((work: ReadonlyMap<string, string>, command: string) =>
      summary(command, work.get("src/math.js") === FIXED ? [] : ["math adds"]));
  const tests = new ScriptedTests((request) => {
    const sandbox = git.sandboxes.find((s) => s.dir === request.cwd);
    if (!sandbox) throw new Error(`tests run outside a clone: ${request.cwd}`);
    return decide(sandbox.work, request.command);
  });
  const clock = new ManualClock();
  const logger = new MemoryLogger();
  const deps: FixDeps = {
    git,
    model,
    runner: tests,
    clock,
    logger,
    files: git.workTree,
    defaultModel: "test-model",
    ...(options.secrets ? { secrets: options.secrets } : {}),
  };
  return { deps, git, model, tests, clock, logger, sandbox: () => git.last };
}
