/** Sizes people write and read (pure): "4G", "512M", "1.5g", "2GiB" in; "4 GiB" out. */

const UNITS: Readonly<Record<string, number>> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** A size in binary units, or a number of bytes; undefined when unreadable or under one byte. */
export function parseBytes(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  if (match === null) return undefined;
  const value = Number(match[1]) * (UNITS[(match[2] ?? "").toLowerCase()] ?? 1);
  return Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}

export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024],
  ] as const) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? String(value) : value.toFixed(1)} ${unit}`;
    }
  }
  return `${String(bytes)} bytes`;
}
