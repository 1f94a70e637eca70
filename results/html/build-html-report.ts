/** The one call the CLI makes: a run (the latest by default) of a store, as one HTML page. */
import type { ResultsStore } from "../store.ts";
import { loadReportInputs } from "./report-inputs.ts";
import { buildReportModel } from "./report-model.ts";
import { type RenderOptions, renderHtmlReport } from "./report-page.ts";

export function htmlReportOf(store: ResultsStore, runId?: string, options?: RenderOptions): string {
  return renderHtmlReport(buildReportModel(loadReportInputs(store, runId)), options);
}
