// The `--prices FILE` of the commands that call models (`deno task eval`, `deno task judge`).
import { loadPrices, type PriceTable } from "../agents/model/mod.ts";
import { jsonErrorWhere, MAX_CONFIG_BYTES, openInputFile } from "../eval/fs_errors.ts";

/**
 * The price table of a `--prices` file: a regular file of at most `MAX_CONFIG_BYTES` (`/dev/zero`
 * is refused, not read for ever), whose parse error says where, never what the file holds (it
 * may be anything, e.g. a password file). Throws an `InputFileError`, or `loadPrices()`'s errors.
 */
export async function readPrices(path: string): Promise<PriceTable> {
  (await openInputFile(path, { what: "price file", limit: MAX_CONFIG_BYTES })).close();
  try {
    return await loadPrices(path);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new SyntaxError(
      `Cannot parse price file "${path}" as JSON${jsonErrorWhere(err)}: expected ` +
        '{ "provider:model": { "input": dollars per million tokens, "output": dollars per million tokens } }',
    );
  }
}
