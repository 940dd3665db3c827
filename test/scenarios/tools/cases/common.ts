/**
 * Shared sources and the one-file case builder most categories use: a real file, the true change to it
 * (`from` → `to`, which must occur once), what the model wrote, and how the file is dressed (CRLF, BOM, ...).
 */
import { editblock, patchDoc, patchUpdate, reply, udiff, type PathStyle, type UdiffOptions } from "../render.js";
import { src, swap, type CaseFormat, type CaseSpec, type Category, type Tree } from "../spec.js";

export const P = {
  limiter: "src/rate-limiter.ts",
  handlers: "src/handlers.ts",
  messages: "web/src/messages.ts",
  billing: "app/billing.py",
  exporters: "app/exporters.py",
  sync: "app/sync_worker.py",
  server: "cmd/server/main.go",
  cache: "internal/store/cache.go",
  tokenizer: "src/tokenizer.rs",
  orders: "src/main/java/com/acme/orders/OrderService.java",
  makefile: "Makefile",
  yaml: "config/app.yaml",
  settings: "config/settings.json",
  setup: "docs/setup.md",
} as const;

export const S = {
  limiter: src("rate-limiter.ts"),
  handlers: src("handlers.ts"),
  messages: src("messages.ts"),
  billing: src("billing.py"),
  exporters: src("exporters.py"),
  sync: src("sync_worker.py"),
  server: src("server.go"),
  cache: src("cache.go"),
  tokenizer: src("tokenizer.rs"),
  orders: src("OrderService.java"),
  makefile: src("Makefile"),
  yaml: src("app.yaml"),
  settings: src("settings.json"),
  setup: src("setup.md"),
} as const;

export type Key = keyof typeof P;

/** A line of handlers.ts several cases edit. */
export const HANDLER_LIMIT = "  const orders = await listOrders(session.userId, { limit: 50 });";

/** A neighbour file that every tree carries, so a case also proves untouched files stay untouched. */
export const README = "# inventory\n\nInternal service. See docs/ for setup.\n";

export const tree = (files: Tree): Tree => ({ "README.md": README, ...files });

/** A refusal case: the tree must stay byte-identical and a failure must carry one of `reasons`. */
export const refusal = (
  id: string,
  category: Category,
  format: CaseFormat,
  reasons: string[],
  note: string,
  before: Tree,
  body: string,
  outside?: string[],
): CaseSpec => ({
  id,
  category,
  format,
  expect: "refuse",
  reasons,
  note,
  ...(outside === undefined ? {} : { outside }),
  before: tree(before),
  reply: body,
});

/** An apply case given its before and after files (the README neighbour is added to both). */
export const applied = (
  id: string,
  category: Category,
  format: CaseFormat,
  note: string,
  before: Tree,
  after: Tree,
  body: string,
): CaseSpec => ({ id, category, format, expect: "apply", note, before: tree(before), after: tree(after), reply: body });

export interface OneFileCase {
  readonly id: string;
  readonly category: Category;
  readonly note: string;
  readonly key: Key;
  /** The real change, on the LF source. */
  readonly from: string;
  readonly to: string;
  /** Further changes to the same file, applied in order (one more block or hunk each). */
  readonly also?: readonly (readonly [string, string])[];
  /** What the model wrote (defaults: from / to). */
  readonly search?: string;
  readonly replace?: string;
  /** How the file is stored (CRLF, BOM, no final newline ...), applied to before and after alike. */
  readonly dress?: (text: string) => string;
  /** Replace the default `after` dressing (e.g. when only some lines keep an odd ending). */
  readonly dressAfter?: (text: string) => string;
  readonly say: string;
  readonly outro?: string;
  readonly render?: "editblock" | "udiff" | "patch";
  readonly style?: PathStyle;
  readonly udiff?: UdiffOptions;
  readonly anchors?: readonly (string | undefined)[];
  readonly endOfFile?: boolean;
  /** Compute the diff from the undressed texts (the model did not see the trailing spaces, say). */
  readonly diffOnClean?: boolean;
}

/** An `apply` case on one file (plus the README neighbour). */
export function oneFile(o: OneFileCase): CaseSpec {
  const source = S[o.key];
  const path = P[o.key];
  const changed = (o.also ?? []).reduce((text, [a, b]) => swap(text, a, b), swap(source, o.from, o.to));
  const dress = o.dress ?? ((t: string) => t);
  const dressAfter = o.dressAfter ?? dress;
  const render = o.render ?? "editblock";
  const diffBefore = o.diffOnClean === true ? source : dress(source);
  const diffAfter = o.diffOnClean === true ? changed : dressAfter(changed);
  let block: string;
  if (render === "editblock") {
    const opts = o.style === undefined ? {} : { style: o.style };
    block = [
      editblock(path, o.search ?? o.from, o.replace ?? o.to, opts),
      ...(o.also ?? []).map(([a, b]) => editblock(path, a, b, opts)),
    ].join("\n\n");
  } else if (render === "udiff") {
    block = `\`\`\`diff\n${udiff(path, diffBefore, diffAfter, o.udiff ?? {})}\n\`\`\``;
  } else {
    block = `\`\`\`\n${patchDoc(patchUpdate(path, diffBefore, diffAfter, { ...(o.anchors === undefined ? {} : { anchors: o.anchors }), endOfFile: o.endOfFile === true }))}\n\`\`\``;
  }
  const format: CaseFormat = render;
  return {
    id: o.id,
    category: o.category,
    format,
    expect: "apply",
    note: o.note,
    before: tree({ [path]: dress(source) }),
    after: tree({ [path]: dressAfter(changed) }),
    reply: reply(o.say, block, ...(o.outro === undefined ? [] : [o.outro])),
  };
}
