import { assert, assertEquals, assertRejects } from "@std/assert";
import { InputFileError, jsonErrorWhere, openInputFile, readInputText } from "./fs_errors.ts";

const CONFIG = { what: "config file", limit: 1024 };

Deno.test("openInputFile() refuses a device, a folder and a missing file in one line, without waiting on them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: [string, InputFileError["code"], string][] = [
      ["/dev/zero", "not_regular", 'Cannot read config file "/dev/zero": it is not a regular file'],
      [dir, "not_regular", `Cannot read config file "${dir}": it is a folder`],
      [`${dir}/none.json`, "unreadable", `Cannot read config file "${dir}/none.json": no such file or folder`],
    ];
    for (const [path, code, message] of cases) {
      const err = await assertRejects(() => openInputFile(path, CONFIG), InputFileError);
      assertEquals([err.code, err.message.startsWith(message), err.message.includes("\n")], [code, true, false]);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openInputFile() refuses a named pipe before opening it (opening one waits for a writer)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = `${dir}/fifo`;
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output().catch(() => null);
    if (made === null || !made.success) return; // no mkfifo here: nothing to test
    const err = await assertRejects(() => openInputFile(fifo, CONFIG), InputFileError);
    assertEquals(err.code, "not_regular");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readInputText() reads a file within its limit and refuses one past it", async () => {
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(path, '{"tasks": 6}');
    assertEquals(await readInputText(path, CONFIG), '{"tasks": 6}');
    await Deno.writeTextFile(path, "x".repeat(2048));
    const err = await assertRejects(() => readInputText(path, CONFIG), InputFileError);
    assertEquals(err.code, "too_big");
    assert(err.message.startsWith(`Cannot read config file "${path}": it holds`), err.message);
    assert(!err.message.includes("xxx"), err.message);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("jsonErrorWhere() gives the line and column V8 names, never the text it quotes", () => {
  const where = (text: string) => {
    try {
      JSON.parse(text);
    } catch (err) {
      return jsonErrorWhere(err as SyntaxError);
    }
    throw new Error("parsed");
  };
  assertEquals(where('{\n  "a": 1,\n}'), " at line 3, column 1");
  assertEquals(where('{"a": '), " at the end");
  // V8's message here is `Unexpected token 'r', "root:x:0:0"... is not valid JSON`.
  assertEquals(where("root:x:0:0:root:/root:/bin/bash"), "");
});
