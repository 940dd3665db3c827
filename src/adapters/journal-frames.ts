/**
 * The delivery journal's record format (pure): each record is a frame of an unsigned 32-bit length, the CRC-32 of
 * the payload, then the payload, little-endian. Segments are zero-filled before use, so a zero length marks the
 * end; a frame that runs past the data or fails its CRC is the torn tail of a write that was never acknowledged
 * (a batch is answered only after its fdatasync), and reading stops there.
 */
import { crc32 } from "node:zlib";

export const FRAME_HEADER_BYTES = 8;

export function encodeFrame(payload: Buffer): Buffer {
  const frame = Buffer.alloc(FRAME_HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(crc32(payload), 4);
  payload.copy(frame, FRAME_HEADER_BYTES);
  return frame;
}

export interface DecodedFrames {
  readonly payloads: Buffer[];
  /** Where the next frame would start. */
  readonly end: number;
  /** Bytes after `end` that are not zero: a torn or damaged write, not an end marker. */
  readonly torn: boolean;
}

export function decodeFrames(data: Buffer): DecodedFrames {
  const payloads: Buffer[] = [];
  let offset = 0;
  while (offset + FRAME_HEADER_BYTES <= data.length) {
    const length = data.readUInt32LE(offset);
    if (length === 0) break;
    const start = offset + FRAME_HEADER_BYTES;
    if (start + length > data.length) break;
    const payload = data.subarray(start, start + length);
    if (crc32(payload) !== data.readUInt32LE(offset + 4)) break;
    payloads.push(payload);
    offset = start + length;
  }
  const rest = data.subarray(offset);
  return { payloads, end: offset, torn: rest.some((byte) => byte !== 0) };
}
