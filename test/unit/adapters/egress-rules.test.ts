import { describe, expect, it } from "vitest";
import {
  DEFAULT_SETUP_RULES,
  decideEgress,
  isInternalAddress,
  parseEgressRules,
  urlHosts,
} from "../../../src/adapters/sandbox/egress-rules.js";

describe("parseEgressRules", () => {
  it("reads hosts, ports, subdomain wildcards and the catch-all, and names what it cannot read", () => {
    const parsed = parseEgressRules("registry.example.com, 127.0.0.1:4873 *.corp.example [::1]:8080 * bad:port:x a*b");
    expect(parsed.rules).toEqual([
      { host: "registry.example.com" },
      { host: "127.0.0.1", port: 4873 },
      { host: "*.corp.example" },
      { host: "::1", port: 8080 },
      { host: "*" },
    ]);
    expect(parsed.errors).toEqual(["bad:port:x", "a*b"]);
  });
});

describe("urlHosts", () => {
  it("takes the host and port of each http(s) URL, lists included, and nothing else", () => {
    expect(
      urlHosts([
        "https://Mirror.Example/simple file:///opt/pypi/simple",
        "http://127.0.0.1:8080/simple",
        "https://mirror.example/other",
        "mirror.example",
        "/opt/wheels",
        "https://[::1]:4873/",
      ]),
    ).toEqual([
      { host: "mirror.example", port: 443 },
      { host: "127.0.0.1", port: 8080 },
      { host: "::1", port: 4873 },
    ]);
  });
});

describe("decideEgress", () => {
  it("admits the public registries by default, on HTTPS only, JSR's npm registry among them", () => {
    for (const host of ["registry.npmjs.org", "npm.jsr.io", "pypi.org", "index.crates.io"]) {
      expect(decideEgress(DEFAULT_SETUP_RULES, host, 443).allowed).toBe(true);
      expect(decideEgress(DEFAULT_SETUP_RULES, host, 80).allowed).toBe(false);
    }
  });

  const rules = parseEgressRules("registry.npmjs.org:443 *.pkg.example 127.0.0.1:4873").rules;

  it("admits a listed host on its port, and marks an exact entry as such", () => {
    expect(decideEgress(rules, "registry.npmjs.org", 443)).toEqual({ allowed: true, exact: true });
    expect(decideEgress(rules, "Registry.NPMJS.org.", 443)).toEqual({ allowed: true, exact: true });
    expect(decideEgress(rules, "127.0.0.1", 4873)).toEqual({ allowed: true, exact: true });
  });

  it("admits subdomains of a wildcard, never as exact", () => {
    expect(decideEgress(rules, "eu.pkg.example", 443)).toEqual({ allowed: true, exact: false });
    expect(decideEgress(rules, "pkg.example", 443)).toEqual({ allowed: false });
  });

  it("refuses other hosts and other ports", () => {
    expect(decideEgress(rules, "evil.example.com", 443)).toEqual({ allowed: false });
    expect(decideEgress(rules, "registry.npmjs.org", 80)).toEqual({ allowed: false });
    expect(decideEgress(rules, "127.0.0.1", 6379)).toEqual({ allowed: false });
  });
});

describe("isInternalAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["::1", true],
    ["fd00::1", true],
    ["fe80::1", true],
    ["::ffff:127.0.0.1", true],
    ["104.16.0.35", false],
    ["2606:4700::6810:84e5", false],
  ])("%s → %s", (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });
});
