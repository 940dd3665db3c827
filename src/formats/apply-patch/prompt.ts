/** Teaches the apply_patch dialect. */
export const APPLY_PATCH_PROMPT = `Edit files with one patch between '*** Begin Patch' and '*** End Patch'. Per file: '*** Add File: path' then
'+' lines; '*** Delete File: path'; or '*** Update File: path' (optionally '*** Move to: new/path') then chunks. A
chunk starts with '@@' or '@@ <a line just above the change, e.g. a def or class line>'; its lines start with ' '
(unchanged, copied exactly), '-' (removed) or '+' (added), with 3 lines of context. Example:

*** Begin Patch
*** Update File: src/greet.py
@@ def greet(name):
-    print("Hello " + name)
+    print(f"Hello, {name}!")
*** End Patch
`;
