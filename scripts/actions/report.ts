import { readAcceptFile } from "../../results/accept-file.ts";
import { htmlReportOf } from "../../results/html/build-html-report.ts";
import { renderJunit } from "../../results/junit-report.ts";
import { markdownOf, summaryJson, writeOutputFile } from "../../results/run-outputs.ts";
import { loadRunView } from "../../results/run-view.ts";
import { openStoreReadonly } from "../../results/store.ts";
import { EXIT } from "../exit-codes.ts";
import { requireWritableFile } from "../paths.ts";
import { withResultsErrors } from "../results-errors.ts";
import { optionalRunIdArg } from "../run-id-arg.ts";

export interface ReportOptions {
  db: string;
  md?: string;
  json?: string | boolean;
  junit?: string;
  accept?: string;
  html?: string;
}

export function reportAction(run: string | undefined, options: ReportOptions): Promise<void> {
  const runId = optionalRunIdArg(run, "report RUN");
  // Every file it will write, checked before anything is read or written.
  const outputs: [string | undefined, string][] = [
    [options.md, "--md"],
    [options.html, "--html"],
    [options.junit, "--junit"],
    [typeof options.json === "string" ? options.json : undefined, "--json"],
  ];
  for (const [path, flag] of outputs) if (path !== undefined) requireWritableFile(path, flag);
  return withResultsErrors(() => {
    // Read the baseline first: a bad accept file must stop us before anything is written.
    const accepts = options.accept ? readAcceptFile(options.accept) : [];
    const store = openStoreReadonly(options.db);
    try {
      const view = loadRunView(store, runId);
      const anyOutput = options.md || options.json || options.junit || options.html;
      // Each file written, one path a line on stdout; on stderr when stdout is the summary.
      const wrote = (path: string) =>
        options.json === true
          ? process.stderr.write(`wrote ${path}\n`)
          : process.stdout.write(`${path}\n`);
      const write = (path: string, content: string) => {
        writeOutputFile(path, content);
        wrote(path);
      };
      if (options.html) write(options.html, htmlReportOf(store, view.run.id));
      if (options.md) write(options.md, markdownOf(store, view));
      if (typeof options.json === "string") write(options.json, summaryJson(view));
      else if (options.json) process.stdout.write(summaryJson(view));
      if (!anyOutput) process.stdout.write(markdownOf(store, view));
      if (options.junit) {
        const junit = renderJunit(view, accepts);
        write(options.junit, junit.xml);
        for (const unused of junit.unusedAccepts) {
          process.stderr.write(
            `gatecheck: accepted loss matched no cell (fixed, or a stale entry): ${unused.gateway} ${unused.field} ${unused.verdict}\n`,
          );
        }
        process.stderr.write(
          `junit: ${junit.tests} cases, ${junit.failures} failed, ${junit.accepted} accepted, ${junit.skipped} skipped\n`,
        );
        if (junit.failures > 0) process.exitCode = EXIT.failed;
      }
    } finally {
      store.close();
    }
  }, options.db);
}
