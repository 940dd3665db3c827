export const USAGE = `usage:
  patchsmith apply [--root DIR] [--format auto|editblock|udiff|patch|whole] [--dry-run] [--partial] [--json] [REPLY|-]
      apply a model reply's edits to a tree; exit 0 all applied, 1 some failed, 2 usage error
  patchsmith fix --repo PATH|URL [--branch B] [--into NAME] [--setup CMD | --no-setup] [--test CMD] [--model M]
                 [--edit-format editblock|udiff|patch|whole] [--max-attempts N] [--test-minutes M]
                 [--co-author "Name <email>"] [--push] [--keep] [--json] "instruction"
      run the whole loop in a throwaway clone; exit 0 success, 1 otherwise, 2 usage error
  patchsmith serve     run the GitHub App (npm start)
  patchsmith worker    run a queue worker
`;
