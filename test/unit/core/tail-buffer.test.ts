import { describe, expect, it } from "vitest";
import { TailBuffer } from "../../../src/core/tail-buffer.js";

describe("TailBuffer", () => {
  it("keeps everything under the limit", () => {
    const tail = new TailBuffer(100);
    tail.push(Buffer.from("hello "));
    tail.push(Buffer.from("world"));
    expect(tail.text()).toBe("hello world");
    expect(tail.droppedBytes).toBe(0);
  });

  it("keeps exactly the last bytes across chunk boundaries", () => {
    const tail = new TailBuffer(5);
    for (const part of ["abc", "defg", "h", "ijklmnop", "q"]) tail.push(Buffer.from(part));
    expect(tail.text()).toBe("mnopq");
    expect(tail.droppedBytes).toBe(12);
  });

  it("does not start with half a character", () => {
    const tail = new TailBuffer(4);
    tail.push(Buffer.from("aé€"));
    // "é€" is 2 + 3 bytes: the last 4 bytes start inside "é".
    expect(tail.text()).toBe("€");
  });

  it("keeps nothing with a zero limit", () => {
    const tail = new TailBuffer(0);
    tail.push(Buffer.from("abc"));
    expect(tail.text()).toBe("");
    expect(tail.droppedBytes).toBe(3);
  });
});
