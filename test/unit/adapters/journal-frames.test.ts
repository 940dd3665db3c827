import { describe, expect, test } from "vitest";
import { decodeFrames, encodeFrame, FRAME_HEADER_BYTES } from "../../../src/adapters/journal-frames.js";

const frames = (...texts: string[]): Buffer => Buffer.concat(texts.map((t) => encodeFrame(Buffer.from(t))));
const texts = (data: Buffer): string[] => decodeFrames(data).payloads.map((p) => p.toString());

describe("journal frames", () => {
  test("read back in order up to the zeros that end a segment", () => {
    const data = Buffer.concat([frames("one", "two", "three"), Buffer.alloc(64)]);
    const decoded = decodeFrames(data);
    expect(texts(data)).toEqual(["one", "two", "three"]);
    expect(decoded.torn).toBe(false);
    expect(decoded.end).toBe(3 * FRAME_HEADER_BYTES + "onetwothree".length);
  });

  test("a frame cut short by a crash ends the reading, and is told apart from the end", () => {
    const whole = frames("kept", "cut short");
    const data = Buffer.concat([whole.subarray(0, whole.length - 3), Buffer.alloc(3)]);
    expect(texts(data)).toEqual(["kept"]);
    expect(decodeFrames(data).torn).toBe(true);
  });

  test("a frame whose bytes changed fails its checksum, and nothing after it is trusted", () => {
    const data = Buffer.concat([frames("first", "second", "third"), Buffer.alloc(8)]);
    const inSecond = 2 * FRAME_HEADER_BYTES + "first".length + 1;
    data.writeUInt8(data.readUInt8(inSecond) ^ 0xff, inSecond);
    expect(texts(data)).toEqual(["first"]);
    expect(decodeFrames(data).torn).toBe(true);
  });

  test("a length that runs past the data is a torn tail, not a record", () => {
    const data = Buffer.alloc(16);
    data.writeUInt32LE(1_000, 0);
    expect(decodeFrames(data)).toMatchObject({ payloads: [], end: 0, torn: true });
  });
});
