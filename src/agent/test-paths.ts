/**
 * Which repository paths hold tests (pure): what the context ranks as examples rather than code, what counts as a
 * reproducing test, what the held-tests check puts back, what types a commit `test`. By folder (`test/`, `tests/`,
 * `__tests__/`, `spec/`, `specs/`) or by file name: `x.test.js`, `x_test.go`, `x-spec.ts`, `test.js`, `tests.js`, `test_x.py`,
 * `XTest.java`, `XTests.cs`.
 */
const TEST_FOLDER = /(^|\/)(tests?|__tests__|specs?)\//;
const TEST_FILE =
  /[._-](test|spec)\.[^/]+$|(^|\/)(tests?|spec)\.[a-z]+$|(^|\/)test_[^/]+\.py$|[a-z\d]Tests?\.(java|kt|cs)$/;

export const isTestPath = (path: string): boolean => TEST_FOLDER.test(path) || TEST_FILE.test(path);
