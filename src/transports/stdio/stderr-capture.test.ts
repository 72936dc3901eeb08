import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { StderrCapture } from "./stderr-capture.ts";

test("keeps a rolling tail of the last lines", () => {
  const capture = new StderrCapture({ tailLines: 3 });
  capture.write("one\ntwo\r\nthr");
  capture.write("ee\nfour\nfive");
  expect(capture.tail()).toEqual(["two", "three", "four"]);
  capture.end();
  expect(capture.tail()).toEqual(["three", "four", "five"]);
});

test("since(mark): the lines after a mark, notes included, as many as the tail still keeps", () => {
  const capture = new StderrCapture({ tailLines: 3 });
  capture.write("before\n");
  const mark = capture.mark();
  expect(capture.since(mark)).toEqual([]);
  capture.write("one\ntw");
  expect(capture.since(mark)).toEqual(["one"]);
  capture.note("[trailblaze] a note");
  capture.write("o\n");
  expect(capture.since(mark)).toEqual(["one", "[trailblaze] a note", "two"]);
  capture.write("three\nfour\n");
  expect(capture.since(mark)).toEqual(["two", "three", "four"]);
  expect(capture.since(capture.mark())).toEqual([]);
});

test("answer marks are noted, never kept or written; untilMarks settles at the count, or at the end", async () => {
  const capture = new StderrCapture({ answerMarks: { ready: "READY", answer: "MARK" } });
  capture.write("READY\n");
  expect(capture.marking).toBe(true);
  const second = capture.untilMarks(2);
  let settled = false;
  void second.then(() => (settled = true));
  capture.write("one\nMARK\ntwo\n");
  await Promise.resolve();
  expect([capture.marks, settled]).toEqual([1, false]);
  capture.write("MARK\n");
  await second;
  expect(capture.marks).toBe(2);
  expect(capture.tail()).toEqual(["one", "two"]);
  const never = capture.untilMarks(5);
  capture.end();
  await never;
  expect(capture.marks).toBe(2);
});

test("the tail defaults to 64 lines", () => {
  const capture = new StderrCapture();
  for (let i = 1; i <= 100; i++) capture.write(`line ${i}\n`);
  const tail = capture.tail();
  expect(tail.length).toBe(64);
  expect(tail[0]).toBe("line 37");
  expect(tail[63]).toBe("line 100");
});

test("cuts very long lines in the tail but keeps them whole in the file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "stderr-capture-"));
  const logFile = join(dir, "logs", "session-1", "subprocess_stderr_x.log");
  const capture = new StderrCapture({ maxTailLineLength: 10, logFile });
  capture.write(`${"x".repeat(25)}\nshort\n`);
  capture.note("[tb] note");
  await capture.close();
  expect(capture.tail()).toEqual(["xxxxxxxxxx … [line cut at 10 of 25 chars]", "short", "[tb] note"]);
  expect(readFileSync(logFile, "utf8")).toBe(`${"x".repeat(25)}\nshort\n[tb] note\n`);
});

test("marks lines over the file limit", async () => {
  const dir = mkdtempSync(join(tmpdir(), "stderr-capture-"));
  const logFile = join(dir, "x.log");
  const capture = new StderrCapture({ maxLineLength: 4, maskWindow: 2, logFile });
  capture.write("abcdefgh\n");
  await capture.close();
  expect(capture.tail()).toEqual(["abcd … [4 more bytes]"]);
  expect(readFileSync(logFile, "utf8")).toBe("abcd … [4 more bytes]\n");
});

test("appends to an existing log file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "stderr-capture-"));
  const logFile = join(dir, "x.log");
  for (const text of ["first\n", "second\n"]) {
    const capture = new StderrCapture({ logFile });
    capture.write(text);
    await capture.close();
  }
  expect(readFileSync(logFile, "utf8")).toBe("first\nsecond\n");
});

test("an unwritable log file is reported once and the tail keeps working", async () => {
  const dir = mkdtempSync(join(tmpdir(), "stderr-capture-"));
  const errors: string[] = [];
  // A directory where the file should be: opening it fails.
  const capture = new StderrCapture({ logFile: dir, onFileError: (e) => errors.push((e as NodeJS.ErrnoException).code ?? "") });
  capture.write("still captured\n");
  await capture.close();
  expect(errors).toEqual(["EISDIR"]);
  expect(capture.tail()).toEqual(["still captured"]);
});

test("attach drains a stream to its end, flushing an unterminated last line", async () => {
  const capture = new StderrCapture();
  const stream = new PassThrough();
  const done = capture.attach(stream);
  stream.write("a\nb");
  stream.end();
  await done;
  expect(capture.tail()).toEqual(["a", "b"]);
});

test("stops writing the file at maxFileBytes; at close one note says how much was not written; the tail goes on", async () => {
  const dir = mkdtempSync(join(tmpdir(), "stderr-capture-"));
  const logFile = join(dir, "x.log");
  const capture = new StderrCapture({ maxFileBytes: 12, logFile, tailLines: 2 });
  capture.write("12345\n67890\nabcde\nfghij\n");
  await capture.close();
  expect(readFileSync(logFile, "utf8")).toBe(
    "12345\n67890\n[trailblaze] … stderr log cut at 12 bytes: 12 more bytes (2 lines) not written (TRAILBLAZE_LOG_MAX_BYTES)\n",
  );
  expect(capture.tail()).toEqual(["abcde", "fghij"]);
});

describe("a line is masked whole before it is cut", () => {
  const SECRET = "SECRET42";
  const mask = (text: string) => text.replaceAll(SECRET, "***");
  /** Every prefix of the secret longer than 2 characters. */
  const prefixes = [...SECRET].map((_, i) => SECRET.slice(0, i + 1)).filter((p) => p.length > 2);

  test("a secret right after 1 MiB - 6 bytes (the default limit) is masked in the file and the tail", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stderr-capture-"));
    const logFile = join(dir, "x.log");
    const capture = new StderrCapture({ logFile, mask });
    capture.write(`${"x".repeat(1024 * 1024 - 6)}${SECRET}\nafter\n`);
    await capture.close();
    const text = readFileSync(logFile, "utf8");
    for (const prefix of prefixes)
      expect({ prefix, inFile: text.includes(prefix), inTail: capture.tail().join("\n").includes(prefix) }).toEqual({
        prefix,
        inFile: false,
        inTail: false,
      });
    expect(text.endsWith("\nafter\n")).toBe(true);
  });

  test("a secret across the line limit of a line held whole is masked, then the line is cut", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stderr-capture-"));
    const logFile = join(dir, "x.log");
    const capture = new StderrCapture({ logFile, mask, maxLineLength: 10, maskWindow: 8 });
    capture.write(`${"x".repeat(8)}${SECRET}\n`);
    await capture.close();
    expect(readFileSync(logFile, "utf8")).toBe("xxxxxxxx** … [1 more bytes]\n");
  });

  test("a line longer than any buffer (one that never ends) drops the window before its cut, where a secret may straddle", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stderr-capture-"));
    const logFile = join(dir, "x.log");
    const capture = new StderrCapture({ logFile, mask, maxLineLength: 10, maskWindow: 8 });
    // The splitter holds 18 bytes: the line's first 15 x's and "SEC"; the rest never reaches memory.
    capture.write(`${"x".repeat(15)}${SECRET}`);
    for (let i = 0; i < 100; i++) capture.write("y".repeat(1000));
    await capture.close();
    expect(readFileSync(logFile, "utf8")).toBe(`xxxxxxxxxx … [${15 + SECRET.length + 100_000 - 10} more bytes]\n`);
    expect(capture.tail()).toEqual(["xxxxxxxxxx … [100013 more bytes]"]);
  });
});

test("the tail is bounded in characters too: the oldest lines go first", () => {
  const capture = new StderrCapture({ maxTailChars: 25, maxTailLineLength: 20 });
  capture.write("one\ntwo\n");
  capture.write(`${"z".repeat(30)}\n`);
  expect(capture.tail()).toEqual([`${"z".repeat(20)} … [line cut at 20 of 30 chars]`]);
  capture.write("three\n");
  expect(capture.tail()).toEqual(["three"]);
});
