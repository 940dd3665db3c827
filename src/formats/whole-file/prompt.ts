/** Teaches the whole-file dialect. */
export const WHOLE_FILE_PROMPT = `To change a file, write its path alone on a line, then a fenced block with the file's ENTIRE new content. Never
abbreviate with "..." or "// ... existing code ...": everything left out would be deleted. Example:

src/greet.py
\`\`\`python
def greet(name: str) -> None:
    print(f"Hello, {name}!")
\`\`\`
`;
