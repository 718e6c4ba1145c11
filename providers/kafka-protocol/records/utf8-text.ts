/** Strings as UTF-8 where every record pays for it (keys, values, headers): short ASCII without a native call. */

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
  if (bytes > 32) return position + buffer.write(text, position, bytes, "latin1");
  for (let i = 0; i < bytes; i++) buffer[position + i] = text.charCodeAt(i);
  return position + bytes;
}
