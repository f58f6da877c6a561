// What every import ends with, whatever its format: the summary kept as the store's note,
// records.jsonl and the reports written from the store. Private to interop/import/.
import type { ResolvedConfig } from "../../eval/config.ts";
import { writeRecordsJsonl } from "../../eval/records.ts";
import type { ResultsStore } from "../../eval/store.ts";
import type { ImportSummary } from "../../report/imported.ts";
import { writeReports } from "../../report/mod.ts";

/** An imported experiment's name: `import-<file without its extension>-<8 hex digits of its sha256>`. */
export function importName(file: string, sha256: string, extension: RegExp = /\.[^.]*$/): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, "_");
  return `import-${safe(file.replace(extension, ""))}-${sha256.slice(0, 8)}`;
}

/** Keeps `summary` as the store's `note` and writes `out`'s records.jsonl, report.json and report.html. */
export async function writeImport(
  store: ResultsStore,
  out: string,
  imported: { summary: ImportSummary; config: ResolvedConfig; seed: string; note: string },
): Promise<{ summary: ImportSummary; config: ResolvedConfig; report: string }> {
  const { summary, config, seed } = imported;
  store.setNote(imported.note, summary);
  await writeRecordsJsonl(store, `${out}/records.jsonl`);
  const report = await writeReports(out, {
    records: store.records(),
    store,
    seed,
    title: config.experiment,
    imported: summary,
  });
  return { summary, config, report };
}
