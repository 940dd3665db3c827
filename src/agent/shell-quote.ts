/** A single-quoted shell word: the text closed, escaped and reopened around each quote it holds. */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
