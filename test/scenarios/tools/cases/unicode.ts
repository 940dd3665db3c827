/** unicode: typography drift between the reply and the file is forgiven; unchanged lines keep the file's bytes. */
import { fence, patchDoc, patchUpdate, reply, udiff } from "../render.js";
import { asciiPunct, swap } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, oneFile, tree } from "./common.js";

const PAYMENT_FROM = `  paymentFailed: "We couldn’t take the payment — please check your card details.",
  cartEmpty: "Your basket is empty.",`;
const PAYMENT_TO = `  paymentFailed: "We couldn’t take the payment — please check your card details.",
  cartEmpty: "Your basket is empty. Browse the catalogue to add something.",`;

const OFFLINE_FROM = `  offline: "You’re offline – changes will sync when you reconnect.",
};`;
const OFFLINE_TO = `  offline: "You’re offline – changes will sync when you reconnect.",
  sessionExpired: "Your session has expired - please sign in again.",
};`;

const TRUNCATE_FROM = `  if (text.length <= max) {
    return text;
  }
  return text.slice(0, max - 1) + "…";`;
const TRUNCATE_TO = `  if (max < 1 || text.length <= max) {
    return text;
  }
  return text.slice(0, max - 1) + "…";`;

const PRICE_FROM = `  // A narrow no-break space keeps the amount and the symbol on one line.
  return currency === "EUR" ? \`\${amount}\u202F€\` : \`\${currency}\u00A0\${amount}\`;`;
const PRICE_TO = `  // Narrow no-break spaces keep the amount and the symbol together (see the style guide).
  return currency === "EUR" ? \`\${amount}\u202F€\` : \`\${currency}\u00A0\${amount}\`;`;

/** Each line's leading spaces as no-break spaces, as a chat page renders code. */
const nbspIndented = (text: string): string => text.replace(/^ +/gm, (run) => "\u00A0".repeat(run.length));

const messagesUdiffAfter = swap(
  S.messages,
  `  outOfStock: "Sorry, “{item}” is out of stock.",`,
  `  outOfStock: "Sorry, “{item}” is out of stock.",
  lowStock: "Only {count} left.",`,
);

export const UNICODE: CaseSpec[] = [
  oneFile({
    id: "unicode-curly-file-ascii-reply",
    category: "unicode",
    note: "File has a curly apostrophe and an em dash; the SEARCH has ASCII. The unchanged line keeps the file's typography.",
    key: "messages",
    from: PAYMENT_FROM,
    to: PAYMENT_TO,
    search: asciiPunct(PAYMENT_FROM),
    replace: asciiPunct(PAYMENT_TO),
    say: "The empty-basket toast should point somewhere useful:",
  }),
  oneFile({
    id: "unicode-ascii-file-curly-reply",
    category: "unicode",
    note: "File has ASCII quotes; the reply's SEARCH has curly quotes (chat UI autocorrect). The file keeps ASCII on unchanged lines.",
    key: "billing",
    from: `            raise ValueError("payment must be positive")
        self.paid += amount`,
    to: `            raise ValueError("payment must be positive")
        self.paid = (self.paid + amount).quantize(CENT, rounding=ROUND_HALF_UP)`,
    search: `            raise ValueError(“payment must be positive”)
        self.paid += amount`,
    replace: `            raise ValueError(“payment must be positive”)
        self.paid = (self.paid + amount).quantize(CENT, rounding=ROUND_HALF_UP)`,
    say: "Keep `paid` rounded to the cent after each payment:",
  }),
  oneFile({
    id: "unicode-en-dash-context",
    category: "unicode",
    note: "En dash and curly apostrophe in the file, hyphen and straight quote in the reply; the added line is written as sent.",
    key: "messages",
    from: OFFLINE_FROM,
    to: OFFLINE_TO,
    search: asciiPunct(OFFLINE_FROM),
    replace: asciiPunct(OFFLINE_TO),
    say: "Adding the session-expired toast:",
    outro: "Remember to add `sessionExpired` to `MessageKey` as well.",
  }),
  oneFile({
    id: "unicode-em-dash-markdown",
    category: "unicode",
    note: "Markdown with em dashes; the reply writes hyphens. The untouched line keeps its em dash.",
    key: "setup",
    from: `This guide gets the service running on a laptop in about ten minutes. If something here is out of date, open an issue
rather than fixing it silently — other people rely on these steps.`,
    to: `This guide gets the service running on a laptop in about fifteen minutes. If something here is out of date, open an issue
rather than fixing it silently — other people rely on these steps.`,
    search: `This guide gets the service running on a laptop in about ten minutes. If something here is out of date, open an issue
rather than fixing it silently - other people rely on these steps.`,
    replace: `This guide gets the service running on a laptop in about fifteen minutes. If something here is out of date, open an issue
rather than fixing it silently - other people rely on these steps.`,
    say: "Ten minutes was optimistic now that the sample data is larger:",
  }),
  oneFile({
    id: "unicode-nbsp-markdown",
    category: "unicode",
    note: "A no-break space in the file, a plain space in the reply; the NBSP line is unchanged and keeps it.",
    key: "setup",
    from: `- \`make\` and \`git\`
- About 2\u00A0GB of free disk space for the sample data`,
    to: `- \`make\` and \`git\`
- About 2\u00A0GB of free disk space for the sample data
- \`jq\` for the helper scripts`,
    search: `- \`make\` and \`git\`
- About 2 GB of free disk space for the sample data`,
    replace: `- \`make\` and \`git\`
- About 2 GB of free disk space for the sample data
- \`jq\` for the helper scripts`,
    say: "The helper scripts need `jq`:",
  }),
  oneFile({
    id: "unicode-ellipsis-file-dots-reply",
    category: "unicode",
    note: "The file has the ellipsis character, the reply three dots; the unchanged return line keeps the ellipsis.",
    key: "messages",
    from: TRUNCATE_FROM,
    to: TRUNCATE_TO,
    search: asciiPunct(TRUNCATE_FROM),
    replace: asciiPunct(TRUNCATE_TO),
    say: "`truncate` misbehaves for `max = 0`; return the text untouched in that case:",
  }),
  oneFile({
    id: "unicode-dots-file-ellipsis-reply",
    category: "unicode",
    note: "The file has three dots, the reply the ellipsis character; the unchanged line keeps the three dots.",
    key: "sync",
    from: `                log.debug("nothing new, sleeping...")
            time.sleep(interval)`,
    to: `                log.debug("nothing new, sleeping...")
            time.sleep(interval if count else interval * 2)`,
    search: `                log.debug("nothing new, sleeping…")
            time.sleep(interval)`,
    replace: `                log.debug("nothing new, sleeping…")
            time.sleep(interval if count else interval * 2)`,
    say: "Back off a little when there is nothing to sync:",
  }),
  oneFile({
    id: "unicode-nbsp-indented-search-editblock",
    category: "unicode",
    note:
      "Every indented line of the block, SEARCH and REPLACE, is indented with no-break spaces (a copy from a chat " +
      "page); the file indents with plain spaces, so they stand for spaces and the new line is written with them.",
    key: "billing",
    from: `        for item in items:
            if item.quantity <= 0:
                raise ValueError(f"quantity must be positive for {item.sku}")
            self.items.append(item)`,
    to: `        for item in items:
            if item.quantity <= 0:
                raise ValueError(f"quantity must be positive for {item.sku}")
            if item.unit_price < 0:
                raise ValueError(f"unit price must not be negative for {item.sku}")
            self.items.append(item)`,
    search: nbspIndented(`        for item in items:
            if item.quantity <= 0:
                raise ValueError(f"quantity must be positive for {item.sku}")
            self.items.append(item)`),
    replace: nbspIndented(`        for item in items:
            if item.quantity <= 0:
                raise ValueError(f"quantity must be positive for {item.sku}")
            if item.unit_price < 0:
                raise ValueError(f"unit price must not be negative for {item.sku}")
            self.items.append(item)`),
    say: "Refuse negative unit prices too:",
  }),
  oneFile({
    id: "unicode-quote-style-swapped-one-line-editblock",
    category: "unicode",
    note:
      "The file writes strings with double quotes; the model quoted its one line with single quotes (its own " +
      "habit), too short for the fuzzy rung. The line is found as the same line and keeps the file's quotes; the " +
      "added line is written as sent.",
    key: "sync",
    from: `                    self.store.delete(record["id"])`,
    to: `                    self.store.delete(record["id"])
                    log.debug('deleted %s', record['id'])`,
    search: `                    self.store.delete(record['id'])`,
    replace: `                    self.store.delete(record['id'])
                    log.debug('deleted %s', record['id'])`,
    say: "Log each deletion:",
  }),
  {
    id: "unicode-udiff-curly-context",
    category: "unicode",
    format: "udiff",
    expect: "apply",
    note: "udiff with ASCII context lines against curly quotes; context lines keep the file's bytes.",
    before: tree({ [P.messages]: S.messages }),
    after: tree({ [P.messages]: messagesUdiffAfter }),
    reply: reply(
      "A low-stock toast for the product page:",
      fence(udiff(P.messages, asciiPunct(S.messages), asciiPunct(messagesUdiffAfter))),
    ),
  },
  {
    id: "unicode-patch-nbsp-context",
    category: "unicode",
    format: "patch",
    expect: "apply",
    note: "apply_patch whose context has plain spaces where the file has no-break spaces; the context line keeps them.",
    before: tree({ [P.messages]: S.messages }),
    after: tree({ [P.messages]: swap(S.messages, PRICE_FROM, PRICE_TO) }),
    reply: reply(
      "Point the comment at the style guide:",
      fence(
        patchDoc(patchUpdate(P.messages, asciiPunct(S.messages), asciiPunct(swap(S.messages, PRICE_FROM, PRICE_TO)))),
        "",
      ),
    ),
  },
];
