import { describe, expect, it } from "vitest";
import { planReply, type ReadState } from "../../../src/apply/plan-reply.js";
import { pathCandidates } from "../../../src/apply/resolve-paths.js";

const RESPONSE = "res.send = function send(body) {\n  var len\n  return len;\n};\n";
const files = new Map([
  ["lib/response.js", RESPONSE],
  ["lib/request.js", "module.exports = {};\n"],
  ["test/request.js", "require('../lib/request');\n"],
]);
const readerOf =
  (tree: ReadonlyMap<string, string>): ReadState =>
  (path) => {
    const content = tree.get(path);
    return Promise.resolve(content === undefined ? { kind: "missing" } : { kind: "text", content });
  };
const read = readerOf(files);
const known = [...files.keys()];

const searchReplace = (path: string): string =>
  [path, "```js", "<<<<<<< SEARCH", "  var len", "=======", "  var len = 0", ">>>>>>> REPLACE", "```", ""].join("\n");

describe("a path no file has, read as the one known file it can only mean", () => {
  it.each([
    ["a bare file name", "response.js"],
    ["the repository's folder before the path", "express/lib/response.js"],
    ["a diff's a/ before the path", "a/lib/response.js"],
    ["the path in another case, as a case-insensitive file system lets it be written", "lib/Response.js"],
    ["a bare file name in another case", "RESPONSE.JS"],
  ])("%s: the edit lands in that file", async (_, path) => {
    const result = await planReply(searchReplace(path), read, { partial: true, knownPaths: known });
    expect(result.results.map((r) => [r.ok, r.path])).toEqual([[true, "lib/response.js"]]);
    expect(result.files.get("lib/response.js")).toContain("  var len = 0\n");
  });

  it("a path written from the root with a leading slash: the edit lands in the listed file", async () => {
    const result = await planReply(searchReplace("/lib/response.js"), read, { partial: true, knownPaths: known });
    expect(result.results.map((r) => [r.ok, r.path])).toEqual([[true, "lib/response.js"]]);
  });

  it("an absolute path that is no listed file is refused as before", async () => {
    const [result] = (await planReply(searchReplace("/etc/response.js"), read, { partial: true, knownPaths: known }))
      .results;
    expect(result).toMatchObject({ ok: false, reason: "unsafe-path" });
  });

  it("several candidates: the edit lands in the one holding the lines it quotes", async () => {
    const reply = searchReplace("request.js").replace("  var len\n", "module.exports = {};\n");
    const result = await planReply(reply, read, { partial: true, knownPaths: known });
    expect(result.results.map((r) => [r.ok, r.path])).toEqual([[true, "lib/request.js"]]);
    // Written in other quotes and indentation: still those lines.
    const loose = searchReplace("request.js").replace("  var len\n", '  require("../lib/request");\n');
    expect((await planReply(loose, read, { partial: true, knownPaths: known })).results).toMatchObject([
      { ok: true, path: "test/request.js", strategy: "unicode" },
    ]);
  });

  it("several candidates holding the lines, or one only by similarity: nothing moves, and the failure names them", async () => {
    const readTwins = readerOf(new Map([...files, ["test/request.js", "module.exports = {};\n"]]));
    const reply = searchReplace("request.js").replace("  var len\n", "module.exports = {};\n");
    const [both] = (await planReply(reply, readTwins, { partial: true, knownPaths: known })).results;
    expect(both).toMatchObject({ ok: false, path: "request.js", reason: "missing-original" });
    expect(both?.ok === false && both.message).toContain("Files of that name: lib/request.js, test/request.js.");
    const long = "module.exports = {\n  request: createRequest,\n  response: createResponse,\n};\n";
    const readLong = readerOf(new Map([...files, ["lib/request.js", long]]));
    const typo = searchReplace("request.js").replace("  var len\n", long.replace("createRequest", "createRequets"));
    const [similar] = (await planReply(typo, readLong, { partial: true, knownPaths: known })).results;
    expect(similar).toMatchObject({ ok: false, path: "request.js", reason: "missing-original" });
    // Named by its path, the similarity search lands it.
    const named = typo.replace("request.js", "lib/request.js");
    expect((await planReply(named, readLong, { partial: true })).results).toMatchObject([
      { ok: true, strategy: "fuzzy" },
    ]);
  });

  it("several candidates: a protected one is neither read nor chosen", async () => {
    const seen: string[] = [];
    const tracking: ReadState = (path) => {
      seen.push(path);
      return read(path);
    };
    const reply = searchReplace("request.js").replace("  var len\n", "module.exports = {};\n");
    const protect = (path: string): string | undefined => (path.startsWith("lib/") ? "it is protected" : undefined);
    const [result] = (await planReply(reply, tracking, { partial: true, knownPaths: known, protect })).results;
    expect(result).toMatchObject({ ok: false, path: "request.js", reason: "missing-original" });
    expect(seen).not.toContain("lib/request.js");
  });

  it("a misspelt path: nothing moves, and the failure names the files a character or two apart", async () => {
    const [result] = (await planReply(searchReplace("lib/respnse.js"), read, { partial: true, knownPaths: known }))
      .results;
    expect(result).toMatchObject({ ok: false, path: "lib/respnse.js", reason: "missing-original" });
    expect(result?.ok === false && result.message).toContain("Files named close to it: lib/response.js.");
    const [far] = (await planReply(searchReplace("lib/answer.js"), read, { partial: true, knownPaths: known })).results;
    expect(far?.ok === false && far.message).not.toContain("close to it");
  });

  it("a deletion keeps its path, and its failure names the file", async () => {
    const reply = ["*** Begin Patch", "*** Delete File: response.js", "*** End Patch", ""].join("\n");
    const [result] = (await planReply(reply, read, { partial: true, knownPaths: known })).results;
    expect(result).toMatchObject({ ok: false, path: "response.js", reason: "missing-original" });
    expect(result?.ok === false && result.message).toContain("Files of that name: lib/response.js.");
  });

  it("a new file keeps its path", async () => {
    const reply = ["*** Begin Patch", "*** Add File: response.js", "+module.exports = 1;", "*** End Patch", ""].join(
      "\n",
    );
    const result = await planReply(reply, read, { partial: true, knownPaths: known });
    expect(result.results.map((r) => [r.ok, r.path])).toEqual([[true, "response.js"]]);
  });

  it("a file that exists keeps its path, known or not", async () => {
    const untracked: ReadState = (path) =>
      path === "response.js" ? Promise.resolve({ kind: "text", content: "  var len\n" }) : read(path);
    const result = await planReply(searchReplace("response.js"), untracked, { partial: true, knownPaths: known });
    expect(result.results.map((r) => [r.ok, r.path])).toEqual([[true, "response.js"]]);
  });

  it("without a list of the known paths (a lookup only) nothing moves", async () => {
    const lookup = { has: (path: string) => files.has(path) };
    const [result] = (await planReply(searchReplace("response.js"), read, { partial: true, knownPaths: lookup }))
      .results;
    expect(result).toMatchObject({ ok: false, path: "response.js", reason: "missing-original" });
  });
});

describe("candidates", () => {
  it("end with the path, or are its end, at a folder boundary", () => {
    const paths = ["lib/response.js", "lib/xresponse.js", "response.jsx", "src/lib/response.js"];
    expect(pathCandidates("response.js", paths)).toEqual(["lib/response.js", "src/lib/response.js"]);
    expect(pathCandidates("pkg/lib/response.js", paths)).toEqual(["lib/response.js"]);
    expect(pathCandidates("lib/response.js", paths)).toEqual(["src/lib/response.js"]);
  });
  it("in another case only when none matches in its own", () => {
    const paths = ["src/Parser.ts", "lib/parser.ts", "test/Parser.test.ts"];
    expect(pathCandidates("src/parser.ts", paths)).toEqual(["src/Parser.ts"]);
    expect(pathCandidates("parser.ts", paths)).toEqual(["lib/parser.ts"]);
    expect(pathCandidates("PARSER.ts", paths)).toEqual(["lib/parser.ts", "src/Parser.ts"]);
  });
});
