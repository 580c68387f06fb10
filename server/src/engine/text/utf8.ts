import type { EngineDiagnostic } from '../diagnostics';
import { TextIndex } from './textIndex';

/** A file's bytes read as text, and where they first stop being UTF-8. */
export interface DecodedText {
  /** The text, with U+FFFD for each invalid sequence (as Node's `utf8` decoding gives it). */
  readonly text: string;
  /** Byte offset of the first byte that is not valid UTF-8; null when every byte is. */
  readonly invalidByte: number | null;
  /** UTF-16 offset in `text` of that byte's replacement character. */
  readonly invalidAt: number | null;
}

const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** Replaces each invalid sequence with U+FFFD (WHATWG's "maximal subpart" rule, as Node's Buffer decoding does). */
const LENIENT = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Decodes a file as UTF-8, noting the first invalid byte: decoding alone would silently turn it into
 * U+FFFD, while GitLab's YAML reader (go-yaml) rejects the file ("invalid leading UTF-8 octet").
 */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  // Valid bytes (nearly every file) are decoded once: both decoders keep a byte order mark, so
  // where the strict one succeeds the lenient one gives the same text.
  try {
    return { text: STRICT.decode(bytes), invalidByte: null, invalidAt: null };
  } catch {
    const text = LENIENT.decode(bytes);
    const invalidByte = firstInvalidByte(bytes);
    // The bytes before it are valid UTF-8, so they decode to the same characters on their own.
    return { text, invalidByte, invalidAt: LENIENT.decode(bytes.subarray(0, invalidByte)).length };
  }
}

/** The diagnostic for a file that is not valid UTF-8, on the first invalid byte's character. */
export function invalidUtf8Diagnostic(decoded: DecodedText, bytes: Uint8Array): EngineDiagnostic | null {
  if (decoded.invalidAt === null || decoded.invalidByte === null) return null;
  const index = new TextIndex(decoded.text);
  const value = bytes[decoded.invalidByte];
  const what = value === undefined ? 'a sequence cut short at the end' : `byte 0x${value.toString(16).toUpperCase().padStart(2, '0')} at offset ${decoded.invalidByte}`;
  return {
    range: index.range(decoded.invalidAt, decoded.invalidAt + 1),
    severity: 'error',
    code: 'file.invalidUtf8',
    message: `The file is not valid UTF-8 (${what}): GitLab's YAML reader rejects it. Save the file as UTF-8.`,
  };
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence (Unicode table 3-7). */
function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0; // no overlong forms
      if (b === 0xed) high = 0x9f; // no surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90; // no overlong forms
      if (b === 0xf4) high = 0x8f; // nothing past U+10FFFF
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return bytes.length;
}
