/** A single-quoted shell word: the text closed, escaped and reopened around each quote it holds. */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A shell word: as it is when the shell reads it so (`--line-length=100`), else single-quoted. */
export const shellWord = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : shellQuote(text));
