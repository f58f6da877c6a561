// The layout promises of HOUSE_STYLE.md, checked on the source: a domain is one folder and one
// registry line, so no library code outside `envs/<domain>/` names a registered domain or one of its
// tools; and a folder's `mod.ts` re-exports no private (`_`-prefixed) module.
import { assert, assertEquals } from "@std/assert";
import { domains } from "../envs/mod.ts";

const ROOT = new URL("..", import.meta.url).pathname;
// Library folders (`server/` and `cli/` when there are any); tests and command-line edges aside.
const LIBRARY = ["envs", "agents", "judge", "scoring", "eval", "report", "interop", "server", "cli"];

/** A string literal of a source file (a template literal's text between its `${}`), with its line. */
interface Literal {
  line: number;
  text: string;
}

/**
 * The source with its comments blanked (line breaks kept, so lines still count), and its string
 * literals: quoted ones, and the text of template literals between their `${}` expressions.
 * Regular expression literals are skipped, so a quote inside one opens no string.
 */
function scan(source: string): { code: string; literals: Literal[]; balanced: boolean } {
  const literals: Literal[] = [];
  let code = "";
  let line = 1;
  // The open template literals, each with the depth of braces in its current `${}` expression.
  const templates: number[] = [];
  const keep = (from: number, to: number) => {
    const text = source.slice(from, to);
    line += text.split("\n").length - 1;
    code += text;
    return to;
  };
  // Where a string's text ends: at its closing quote (or backtick, or `${` for a template).
  const literalEnd = (from: number, template: boolean): { end: number; close: number } => {
    let j = from;
    while (j < source.length) {
      const c = source[j];
      if (c === "\\") j += 2;
      else if (template ? c === "`" || (c === "$" && source[j + 1] === "{") : c === source[from - 1] || c === "\n") {
        break;
      } else j++;
    }
    return { end: j, close: template && source[j] === "$" ? j + 2 : j + 1 };
  };
  const readLiteral = (from: number, template: boolean): number => {
    const { end, close } = literalEnd(from, template);
    literals.push({ line, text: source.slice(from, end) });
    if (template && source[end] === "`") templates.pop();
    return keep(from, close);
  };
  // A `/` starts a regular expression where a value is expected: after an operator, a bracket or a keyword.
  const regexAllowed = () => {
    const before = code.trimEnd();
    return before === "" || /[(,=:[!&|?{};+\-*%<>~^]$/.test(before) ||
      /\b(?:return|typeof|case|in|of|throw)$/.test(before);
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i], next = source[i + 1];
    if (c === "/" && next === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      const breaks = source.slice(i, stop).split("\n").length - 1;
      line += breaks;
      code += "\n".repeat(breaks);
      i = stop;
    } else if (c === "/" && regexAllowed()) {
      let j = i + 1, inClass = false;
      while (j < source.length && source[j] !== "\n" && (inClass || source[j] !== "/")) {
        if (source[j] === "\\") j++;
        else if (source[j] === "[") inClass = true;
        else if (source[j] === "]") inClass = false;
        j++;
      }
      i = keep(i, j + 1);
    } else if (c === '"' || c === "'") {
      i = readLiteral(keep(i, i + 1), false);
    } else if (c === "`") {
      templates.push(0);
      i = readLiteral(keep(i, i + 1), true);
    } else if (templates.length > 0 && (c === "{" || c === "}")) {
      const depth = templates.length - 1;
      if (c === "}" && templates[depth] === 0) i = readLiteral(keep(i, i + 1), true);
      else {
        templates[depth] += c === "{" ? 1 : -1;
        i = keep(i, i + 1);
      }
    } else {
      i = keep(i, i + 1);
    }
  }
  return { code, literals, balanced: templates.length === 0 };
}

/** Every `.ts` file under a folder of the repository, as paths from the root, in a fixed order. */
function tsFiles(dir: string): string[] {
  const out: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(`${ROOT}${dir}`)];
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  for (const e of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...tsFiles(path));
    else if (e.isFile && e.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

// A domain's own folder may name its domain and tools, registered yet or not (a domain being written).
const domainFolders = [...Deno.readDirSync(`${ROOT}envs`)].filter((e) => e.isDirectory).map((e) => `envs/${e.name}/`);
const libraryFiles = LIBRARY.flatMap(tsFiles).filter((path) =>
  !path.endsWith("_test.ts") && path !== "envs/registry.ts" && !domainFolders.some((f) => path.startsWith(f))
);

// A name in a literal: a whole token of it (so "airline/3" names the airline).
function names(text: string, name: string): boolean {
  return new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).test(text);
}

// A tool's name is looked for when it is a compound ("get_user_details"): a one-word name ("think",
// "transfer") is also a plain word, and kernel vocabulary (`expect: "transfer"`), so finding it would
// flag the kernel whenever a domain names a tool with it.
const compound = (name: string) => /[_-]/.test(name);

// The text checks' English vocabulary: alternations of ordinary words read in any conversation
// ("reservations?|orders?|items?"), where a domain named by a plain noun ("orders") is that noun.
const VOCABULARY = "envs/_text_patterns.ts";
const vocabulary = (path: string, text: string) => path === VOCABULARY && /^[a-z?|() ]+$/.test(text);

Deno.test("scan() finds string literals outside comments, in templates and around regular expressions", () => {
  const { literals, code } = scan([
    "// 'airline' in a comment",
    "const a = \"x\" + 'y'; /* `z` */ const r = /[\"'/]\\//g;",
    "const t = `a ${b ? `c${d}` : \"e\"} f`; const u = x / 2 / 'g';",
    "const url = \"https://example.com\"; // 'h'",
  ].join("\n"));
  assertEquals(literals.map((l) => `${l.line}:${l.text}`), [
    "2:x",
    "2:y",
    "3:a ",
    "3:c",
    "3:",
    "3:e",
    "3: f",
    "3:g",
    "4:https://example.com",
  ]);
  assertEquals(code.split("\n").length, 4);
  assert(!code.includes("airline") && !code.includes("'h'") && !code.includes("`z`"));
  assertEquals(scan("const t = `a ${b}").balanced, false);
  assert(code.includes('"https://example.com"'));
});

Deno.test("no library file outside envs/<domain>/ names a registered domain or one of its tools", () => {
  assert(libraryFiles.length > 20, `${libraryFiles.length} library files`);
  const targets = Object.values(domains).flatMap((d) => [
    { name: d.name, what: `domain "${d.name}"` },
    ...d.tools.filter((t) => compound(t.name)).map((t) => ({ name: t.name, what: `tool "${t.name}" of ${d.name}` })),
  ]);
  const found: string[] = [];
  for (const path of libraryFiles) {
    const { literals, balanced } = scan(Deno.readTextFileSync(`${ROOT}${path}`));
    assert(balanced, `${path}: the scan ended inside a template literal`);
    for (const l of literals) {
      for (const t of targets) {
        if (names(l.text, t.name) && !vocabulary(path, l.text)) {
          found.push(`${path}:${l.line}: ${JSON.stringify(l.text)} names ${t.what}`);
        }
      }
    }
  }
  assertEquals(found, [], `library code naming domains or tools:\n${found.join("\n")}`);
});

Deno.test("only server/ imports Hono or the MCP SDK among the library's files", () => {
  const found: string[] = [];
  for (const path of libraryFiles.filter((p) => !p.startsWith("server/"))) {
    const { code, literals } = scan(Deno.readTextFileSync(`${ROOT}${path}`));
    void code;
    for (const l of literals) {
      if (/^(npm:)?(hono|@modelcontextprotocol\/sdk)(\/|@|$)/.test(l.text)) {
        found.push(`${path}:${l.line}: imports ${l.text}`);
      }
    }
  }
  assertEquals(found, [], `library code outside server/ importing the server's packages:\n${found.join("\n")}`);
});

Deno.test("no mod.ts re-exports a private (_-prefixed) module", () => {
  const mods = LIBRARY.flatMap(tsFiles).filter((path) => path === "mod.ts" || path.endsWith("/mod.ts"));
  assert(mods.length >= 5, `${mods.length} mod.ts files`);
  const found: string[] = [];
  for (const path of mods) {
    const { code } = scan(Deno.readTextFileSync(`${ROOT}${path}`));
    for (const m of code.matchAll(/\bexport\b[^;]*?\bfrom\s*(["'])([^"'\n]+)\1/g)) {
      const spec = m[2];
      if (!spec.startsWith(".") || !spec.split("/").some((s) => s.startsWith("_"))) continue;
      const line = code.slice(0, m.index! + m[0].length).split("\n").length;
      found.push(`${path}:${line}: exports from "${spec}"`);
    }
  }
  assertEquals(found, [], `mod.ts files exporting private modules:\n${found.join("\n")}`);
});

Deno.test("deno doc --lint finds nothing on any entry point deno.json exports", async () => {
  const config = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
  const entries = Object.values(config.exports as Record<string, string>);
  assert(entries.length >= 6, `${entries.length} entry points`);
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...entries],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assertEquals(code, 0, text.split("\n").filter((l) => l.startsWith("error")).slice(0, 20).join("\n"));
});
