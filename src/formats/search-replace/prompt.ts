/** Teaches the SEARCH/REPLACE dialect; the agent puts this in its system prompt. */
export const SEARCH_REPLACE_PROMPT = `Edit files with SEARCH/REPLACE blocks. For each change, write the file path alone on a line, then a fenced block:
<<<<<<< SEARCH, the exact current lines to change (copy them, whitespace included, with enough lines to be unique),
=======, the lines that replace them, and >>>>>>> REPLACE. To create a file, leave SEARCH empty. Never write "..." or
"// ... existing code ..." in REPLACE unless the same elision stands at the same place in SEARCH. Example:

src/greet.py
\`\`\`python
<<<<<<< SEARCH
def greet(name):
    print("Hello " + name)
=======
def greet(name: str) -> None:
    print(f"Hello, {name}!")
>>>>>>> REPLACE
\`\`\`
`;
