/** "1 file", "3 files": a count with its noun (`many` for irregular plurals). */
export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${String(count)} ${count === 1 ? one : many}`;
