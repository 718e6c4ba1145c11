/** Strings as UTF-8 where every record pays for it (keys, values, headers): short ASCII without a native call. */

/**
 * Buffer's own codec methods. Buffer#toString(encoding, start, end) and Buffer#write(text, offset, length, encoding)
 * wrap them with argument checks and an encoding lookup that, on a record's path, cost more than decoding or
 * writing a short string. They are on Buffer.prototype in every Node.js release (bounds are still checked
 * natively: out-of-range offsets throw), but not in its type declarations.
 */
interface BufferCodecMethods {
  utf8Slice(start: number, end: number): string;
  latin1Write(text: string, offset: number, length: number): number;
}

/**
 * Up to this many ASCII bytes are decoded by a loop rather than a native call, which costs more than the decoding of
 * a short key. Below 13 characters V8 concatenates into flat strings, not ropes.
 */
const SHORT_TEXT_BYTES = 12;

/** The UTF-8 text of bytes `start` to `end` of `buffer`: Buffer#toString("utf8", start, end) without its wrapper. */
export function utf8Text(buffer: Buffer, start: number, end: number): string {
  if (end - start <= SHORT_TEXT_BYTES && start >= 0 && end <= buffer.length) {
    let text = "";
    for (let i = start; i < end; i++) {
      const byte = buffer[i];
      if (byte >= 0x80) return (buffer as unknown as BufferCodecMethods).utf8Slice(start, end);
      text += String.fromCharCode(byte);
    }
    return text;
  }
  return (buffer as unknown as BufferCodecMethods).utf8Slice(start, end);
}

/** UTF-8 length of `text`; for short ASCII (what headers hold) a loop beats Buffer.byteLength. */
export function utf8Bytes(text: string): number {
  if (text.length > 16) return Buffer.byteLength(text, "utf8");
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) return Buffer.byteLength(text, "utf8");
  }
  return text.length;
}

/**
 * Writes `text`, `bytes` long in UTF-8, at `position`: short ASCII byte by byte, longer ASCII as latin1 (the same
 * bytes, without UTF-8's decoding), anything else through Buffer#write.
 */
export function writeUtf8(buffer: Buffer, position: number, text: string, bytes: number): number {
  if (bytes !== text.length) return position + buffer.write(text, position, bytes, "utf8");
  if (bytes > 32) return position + (buffer as unknown as BufferCodecMethods).latin1Write(text, position, bytes);
  for (let i = 0; i < bytes; i++) buffer[position + i] = text.charCodeAt(i);
  return position + bytes;
}
