// Reading a τ²-bench import's input: one results file, or a results folder (`results.json` and
// `simulations/<id>.json`); and the domain it names, refused in one line when no registered domain
// declares a τ² copy of its world. Private to the import.
import { type Domain, domains } from "../../envs/mod.ts";
import { InputFileError, MAX_WHOLE_BYTES, readInputBytes } from "../../eval/fs_errors.ts";

/** A τ² import's input: the results text, the simulations' texts by id (a folder), and the bytes hashed. */
export interface Tau2Input {
  text: string;
  simulations?: Map<string, string>;
  /** Every byte read, in order (`results.json`, then each simulation file by name), for the source's SHA-256. */
  bytes: Uint8Array;
}

const isFolder = async (path: string) => {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false; // Missing or not allowed: reading it says so.
  }
};

/**
 * Reads a τ² results file or folder; `refuse` makes the caller's one-line error. As τ²'s
 * `Results.load` detects it, a folder, or a file with a sibling `simulations/` folder, is the folder
 * layout: its results file (`results.json` in a folder) and every `simulations/*.json`, by name.
 */
export async function readTau2Input(path: string, refuse: (message: string) => Error): Promise<Tau2Input> {
  const folder = await isFolder(path);
  const parent = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : ".";
  const sibling = !folder && await isFolder(`${parent}/simulations`);
  const read = async (file: string, what: string) => {
    try {
      return await readInputBytes(file, { what, limit: MAX_WHOLE_BYTES });
    } catch (err) {
      if (!(err instanceof InputFileError)) throw err;
      throw refuse(`Cannot import "${file}": ${err.reason}`);
    }
  };
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  if (!folder && !sibling) {
    const bytes = await read(path, "file to import");
    return { text: decode(bytes), bytes };
  }
  const results = await read(folder ? `${path}/results.json` : path, "τ²-bench results file");
  const dir = folder ? `${path}/simulations` : `${parent}/simulations`;
  const parts = [results], simulations = new Map<string, string>();
  let names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".json")) names.push(e.name);
    }
  } catch {
    throw refuse(
      `Cannot import "${path}": it is a folder without a simulations/ folder; expected τ²-bench's results.json ` +
        `and simulations/<id>.json, or one results file`,
    );
  }
  names = names.sort();
  if (names.length === 0) {
    throw refuse(
      `Cannot import "${path}": ${dir} holds no simulation files; expected τ²-bench's simulations/<id>.json ` +
        `beside its results.json`,
    );
  }
  for (const name of names) {
    const bytes = await read(`${dir}/${name}`, "τ²-bench simulation file");
    parts.push(bytes);
    simulations.set(name.slice(0, -".json".length), decode(bytes));
  }
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) bytes.set(p, at), at += p.length;
  return { text: decode(results), simulations, bytes };
}

/** The registered domain of a τ² file, or the one-line reason there is none. */
export function tau2Domain(name: string, file: string, given: boolean): Domain | string {
  const known = Object.values(domains).filter((d) => d.tau2Bench !== undefined).map((d) => d.name);
  const domain = domains[name];
  if (domain !== undefined && domain.tau2Bench !== undefined) return domain;
  return given
    ? `Invalid domain "${name}" for a τ²-bench file: expected one of ${
      known.join(", ")
    } (the domains with a τ²-bench copy)`
    : `Cannot import "${file}": its domain "${name}" (info.environment_info.domain_name) is not one ark has a ` +
      `τ²-bench copy of (expected one of ${known.join(", ")}); pass --domain to read it as one of those`;
}
