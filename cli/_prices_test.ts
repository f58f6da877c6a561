import { assertEquals, assertRejects } from "@std/assert";
import { readPrices } from "./_prices.ts";
import { InputFileError } from "../eval/fs_errors.ts";

Deno.test("readPrices() says where a price file is not JSON, never what it holds, and reads no device", async () => {
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(path, "root:$6$salt$hash:19000:0:99999:7:::\n");
    const err = await assertRejects(() => readPrices(path), SyntaxError);
    assertEquals(
      err.message,
      `Cannot parse price file "${path}" as JSON: expected ` +
        '{ "provider:model": { "input": dollars per million tokens, "output": dollars per million tokens } }',
    );
    await Deno.writeTextFile(path, '{"openai:m": {"input": 1, "output": 2},}');
    await assertRejects(() => readPrices(path), SyntaxError, "as JSON at line 1, column 40: expected");
    await Deno.writeTextFile(path, '{"openai:m": {"input": 1, "output": 2}}');
    assertEquals((await readPrices(path))["openai:m"], { input: 1, output: 2 });
  } finally {
    await Deno.remove(path);
  }
  await assertRejects(() => readPrices("/dev/zero"), InputFileError, "not a regular file");
});
