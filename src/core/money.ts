/** Amounts people read (pure): "$0.0123" for the cents and fractions of a cent that model calls cost. */
export function formatUsd(amount: number): string {
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  if (amount >= 0.01) return `$${amount.toFixed(3)}`;
  return `$${amount.toFixed(4)}`;
}

/** What a call cost in US dollars, from its tokens and the price per million tokens. */
export function costOf(
  price: { readonly input: number; readonly output: number },
  promptTokens: number,
  completionTokens: number,
): number {
  return (promptTokens * price.input + completionTokens * price.output) / 1_000_000;
}
