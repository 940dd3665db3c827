/** The last N bytes of a stream, with memory bounded by N plus one chunk however much a test suite prints. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    if (this.limit <= 0) {
      this.dropped += chunk.length;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit) {
      const head = this.chunks[0];
      if (head === undefined) break;
      const excess = this.size - this.limit;
      if (head.length <= excess) {
        this.chunks.shift();
        this.size -= head.length;
        this.dropped += head.length;
      } else {
        this.chunks[0] = head.subarray(excess);
        this.size -= excess;
        this.dropped += excess;
      }
    }
  }

  /** Bytes that were cut from the front. */
  get droppedBytes(): number {
    return this.dropped;
  }

  /** The kept tail as text; a character cut in half at the front is dropped rather than shown as garbage. */
  text(): string {
    return tailText(Buffer.concat(this.chunks), this.dropped > 0);
  }
}

/** The last bytes of a text as text: when the front was `cut`, a character cut in half there is dropped. */
export function tailText(buffer: Buffer, cut: boolean): string {
  let start = 0;
  // UTF-8 continuation bytes are 10xxxxxx: skip them until a character starts.
  if (cut) while (start < buffer.length && start < 4 && ((buffer[start] ?? 0) & 0xc0) === 0x80) start++;
  return buffer.subarray(start).toString("utf8");
}
