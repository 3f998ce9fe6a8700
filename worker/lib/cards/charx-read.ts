/**
 * Reading a `.charx` (a zip: Character Card V3 SPEC_V3.md "CharX") as it
 * arrives, with fflate's streaming `Unzip`: each file is inflated while the
 * request body is read and handed on once complete, so the archive is never
 * held whole; only one file (at most MAX_ASSET_BYTES) is in memory at a time.
 *
 * Limits against archive bombs and hostile paths (DESIGN.md "Character
 * assets"), each refused with AssetError naming the file, as soon as it is
 * known: more than MAX_ARCHIVE_FILES files; a file inflating past
 * MAX_ASSET_BYTES (counted on the inflated bytes, not on the header's claim);
 * more than MAX_UNPACKED_BYTES in all; a path that is absolute, has a drive
 * letter or a `..` segment (it would leave the archive when unpacked).
 * Input is fed to the inflater in INPUT_SLICE pieces, so one step inflates
 * at most ~1,032 × INPUT_SLICE bytes (deflate's largest ratio) before the
 * limits are checked again.
 */
import { Unzip, UnzipInflate } from "fflate";
import { ApiError } from "../errors.ts";
import { AssetError, MAX_ARCHIVE_FILES, MAX_ASSET_BYTES, MAX_UNPACKED_BYTES } from "./assets.ts";

/** Bytes pushed to the inflater at a time. */
const INPUT_SLICE = 16 * 1024;

/** A zip's local file header signature, `PK\x03\x04`: how a CharX is told from a PNG or JSON card. */
export const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** A JPEG's start of image and first marker, `FF D8 FF`. */
export const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

const u32 = (bytes: Uint8Array, at: number) => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
const isLocalHeader = (bytes: Uint8Array, at: number) => at >= 0 && at + 4 <= bytes.length && u32(bytes, at) === 0x04034b50;

/**
 * Where the zip appended to `bytes` begins (RisuAI's JPEG cards: a JPEG
 * picture followed by a whole `.charx`), or null when there is none. Found
 * from the end, as zip readers do (PKWARE APPNOTE.TXT 4.3.16): the
 * end-of-central-directory record (`PK\x05\x06`, within the last 22 +
 * 65,535 bytes, its comment) gives the central directory's size and offset;
 * the zip begins that far before the directory when its offsets count from
 * its own start (a zip written alone, then appended), else at the first
 * entry's local header (offsets counted from the file's start). Either way
 * a local file header (`PK\x03\x04`) must be there. ZIP64 is not read.
 */
export function appendedZipStart(bytes: Uint8Array): number | null {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (u32(bytes, at) !== 0x06054b50) continue;
    const directorySize = u32(bytes, at + 12);
    const directoryOffset = u32(bytes, at + 16);
    const directory = at - directorySize;
    if (directory < 0 || u32(bytes, directory) !== 0x02014b50) continue;
    const relative = directory - directoryOffset;
    if (relative > 0 && isLocalHeader(bytes, relative)) return relative;
    const firstEntry = u32(bytes, directory + 42);
    if (firstEntry > 0 && isLocalHeader(bytes, firstEntry)) return firstEntry;
  }
  return null;
}

/**
 * The archive path `name` with `\` read as `/` and `./` segments dropped;
 * throws AssetError when it would leave the archive.
 */
export function safeArchivePath(name: string): string {
  const path = name.replace(/\\/g, "/");
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  if (path.startsWith("/") || /^[a-zA-Z]:/.test(path) || parts.includes("..") || path.includes("\0")) {
    throw new AssetError(name, "this path leaves the archive");
  }
  return parts.join("/");
}

/** One file of the archive, complete. */
export interface ArchiveFile {
  /** safeArchivePath of its name. */
  path: string;
  bytes: Uint8Array;
}

/** `parts` (`size` bytes in all) as one array; a single part is returned as it is, not copied. */
export function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Reads the zip that starts with `head` and goes on in `reader`, calling
 * `onFile` for every file once it is complete, in archive order (awaited
 * before more input is read). Directories are skipped. Throws AssetError for
 * the limits above, 400 `validation_failed` for a damaged or truncated
 * archive; the reader is cancelled on any error.
 */
export async function readZipStream(
  head: Uint8Array,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  onFile: (file: ArchiveFile) => Promise<void>,
): Promise<void> {
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  const complete: ArchiveFile[] = [];
  let files = 0;
  let unpacked = 0;
  unzip.onfile = (file) => {
    const path = safeArchivePath(file.name);
    if (file.name.endsWith("/")) {
      file.ondata = () => undefined;
      file.start();
      return;
    }
    if (++files > MAX_ARCHIVE_FILES) throw new AssetError(file.name, `an archive can hold at most ${MAX_ARCHIVE_FILES.toLocaleString("en")} files`);
    if ((file.originalSize ?? 0) > MAX_ASSET_BYTES) throw new AssetError(file.name, "files can be at most 32 MB");
    const parts: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, data, final) => {
      // fflate hands a throw of ours from this callback back to it as `error`.
      if (error instanceof ApiError) throw error;
      if (error) throw new AssetError(file.name, "this file is damaged in the archive");
      size += data.length;
      unpacked += data.length;
      if (size > MAX_ASSET_BYTES) throw new AssetError(file.name, "files can be at most 32 MB");
      if (unpacked > MAX_UNPACKED_BYTES) throw new AssetError(file.name, "the archive unpacks to more than 256 MB");
      if (data.length > 0) parts.push(data);
      if (final) complete.push({ path, bytes: concat(parts, size) });
    };
    file.start();
  };
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      unzip.push(chunk, final);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError("validation_failed", "This .charx archive is damaged or incomplete", {
        issues: [{ path: "card", message: "This .charx archive is damaged or incomplete" }],
      });
    }
  };
  try {
    let chunk: Uint8Array | undefined = head;
    while (chunk) {
      for (let at = 0; at < chunk.length; at += INPUT_SLICE) {
        push(chunk.subarray(at, at + INPUT_SLICE), false);
        while (complete.length > 0) await onFile(complete.shift()!);
      }
      const next = await reader.read();
      chunk = next.done ? undefined : next.value;
    }
    push(new Uint8Array(0), true);
    while (complete.length > 0) await onFile(complete.shift()!);
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
}
