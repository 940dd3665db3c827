import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-build.ts"],
    reporters: ["default", "./test/summary-reporter.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Set-up in the sandbox follows the host's pip and npm settings (src/adapters/sandbox/pip-settings.ts,
    // npm-settings.ts): the tests' own indexes must not meet this machine's mirrors. A test about them sets its own.
    env: {
      PIP_CONFIG_FILE: "/dev/null",
      PIP_INDEX_URL: "",
      PIP_EXTRA_INDEX_URL: "",
      PIP_FIND_LINKS: "",
      PIP_TRUSTED_HOST: "",
      PIP_CONSTRAINT: "",
      PIP_NO_INDEX: "",
      npm_config_userconfig: "/dev/null",
      npm_config_registry: "",
    },
  },
});
