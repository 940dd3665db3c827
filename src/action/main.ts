/**
 * The Action's entry point (action.yml runs its bundle, action/index.js): reads the runner's variables, runs the
 * command of the comment that triggered the workflow, and writes the step's outputs and summary. A handled outcome
 * (fixed, refused, failed with a report on the thread) exits 0; a crash or a misconfiguration exits 1.
 */
import { appendFile } from "node:fs/promises";
import { readSettings } from "./inputs.js";
import { outputLines, summaryMarkdown } from "./outputs.js";
import { runAction } from "./run.js";

async function main(): Promise<number> {
  const settings = readSettings(process.env);
  if (!settings.ok) {
    process.stderr.write(`::error::patchsmith: ${settings.message}\n`);
    return 1;
  }
  const { outputFile, summaryFile } = settings.settings;
  try {
    const outcome = await runAction(settings.settings, process.env);
    if (outputFile !== undefined) await appendFile(outputFile, outputLines(outcome));
    if (summaryFile !== undefined) await appendFile(summaryFile, summaryMarkdown(outcome));
    process.stdout.write(`patchsmith: ${outcome.status}\n`);
    return 0;
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replaceAll(settings.settings.token, "***");
    process.stderr.write(`::error::patchsmith: ${message.replace(/\r?\n/g, " ")}\n`);
    return 1;
  }
}

process.exitCode = await main();
