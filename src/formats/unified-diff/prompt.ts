/** Teaches the unified-diff dialect. */
export const UNIFIED_DIFF_PROMPT = `Edit files with unified diffs in a \`\`\`diff fence, one section per file: '--- a/path' and '+++ b/path',
then hunks. Each hunk starts with '@@ ... @@'; its lines start with ' ' (unchanged context, copied exactly), '-'
(removed) or '+' (added). Give 2-3 context lines around each change. Use '--- /dev/null' to create a file and
'+++ /dev/null' to delete one. Example:

\`\`\`diff
--- a/src/greet.py
+++ b/src/greet.py
@@ -1,2 +1,2 @@
 def greet(name):
-    print("Hello " + name)
+    print(f"Hello, {name}!")
\`\`\`
`;
