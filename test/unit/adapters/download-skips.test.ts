import { describe, expect, it } from "vitest";
import { skippedDownloads } from "../../../src/adapters/sandbox/download-skips.js";
import { DEFAULT_SETUP_RULES, parseEgressRules } from "../../../src/adapters/sandbox/egress-rules.js";

describe("skippedDownloads", () => {
  it("skips the browser and binary downloads whose host the default allow-list does not admit", () => {
    expect(skippedDownloads(DEFAULT_SETUP_RULES)).toEqual({
      PUPPETEER_SKIP_DOWNLOAD: "1",
      PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: "1",
      CYPRESS_INSTALL_BINARY: "0",
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
    });
  });

  it("lets a download go ahead once the operator admits its host, by name or by wildcard", () => {
    const admitted = [...DEFAULT_SETUP_RULES, ...parseEgressRules("storage.googleapis.com *.cypress.io").rules];
    expect(skippedDownloads(admitted)).toEqual({ PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" });
    expect(skippedDownloads(parseEgressRules("*").rules)).toEqual({});
  });
});
