/*
 * The one check every GGUF file passes before anything else reads it. node-llama-cpp's reader and
 * llama.cpp trust the counts and lengths a header announces: a file claiming an array of 2^40 items
 * aborts the whole process, one claiming 2^62 keys spins forever. Here every count, length and offset
 * is weighed against the bytes the file really has before anything is read, with a ceiling on the
 * header's size, so any file is answered quickly with its header or the reason it cannot be used.
 * Hand-written: the reader at hand, node-llama-cpp's, is the one that trusts them.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { QuireError } from '../../shared/errors';
import { ggufLayoutProblem } from './llama/ggufLayout';

/** An array in the metadata: its item type and length (its items are skipped, not kept). */
export interface GgufArray {
  itemType: number;
  length: number;
}

export type GgufValue = string | number | bigint | boolean | GgufArray;

export interface GgufTensor {
  name: string;
  /** Innermost first, as the file lists them. */
  dimensions: bigint[];
  ggmlType: number;
  /** Where the tensor's data starts in the file (the data section's start plus its own offset). */
  fileOffset: bigint;
}

export interface GgufHeader {
  fileBytes: number;
  version: number;
  metadata: ReadonlyMap<string, GgufValue>;
  tensors: GgufTensor[];
  /** Where the tensor data begins: the end of the header rounded up to the file's alignment. */
  dataOffset: bigint;
  /** The sum of every tensor's element count. */
  parameters: number;
  architecture: string | undefined;
  name: string | undefined;
}

/** A file that is not a usable GGUF; `reason` is one clause that starts with "it", e.g. "it is truncated: …". */
export class UnusableGgufError extends Error {
  readonly reason: string;

  constructor(reason: string) {
    // Names in a damaged header are any bytes: none of them reaches a terminal as a control character.
    const printable = reason.replace(/\p{Cc}/gu, '?');
    super(printable);
    this.reason = printable;
    this.name = 'UnusableGgufError';
  }
}

export interface ReadGgufHeaderOptions {
  signal?: AbortSignal;
}

// Far above any real model (Gemma 3's 262k-token vocabulary makes a 6.5 MB header, Qwen2.5's 5.9 MB): past these
// the header is damaged, not large. They also cap the work a hostile file can ask for.
const MAX_HEADER_BYTES = 256 * 1024 * 1024;
const MAX_STRING_BYTES = 64 * 1024 * 1024;
const MAX_TENSORS = 1_000_000;
// GGML_MAX_DIMS in llama.cpp.
const MAX_DIMENSIONS = 4;
const READ_CHUNK = 1024 * 1024;
const INT64_MAX = (1n << 63n) - 1n;

const STRING = 8;
const ARRAY = 9;

// Byte sizes of GGUF's fixed-size value types, by type number (8 string and 9 array vary).
const FIXED_SIZES: Readonly<Record<number, number>> = {
  0: 1, // u8
  1: 1, // i8
  2: 2, // u16
  3: 2, // i16
  4: 4, // u32
  5: 4, // i32
  6: 4, // f32
  7: 1, // bool
  10: 8, // u64
  11: 8, // i64
  12: 8, // f64
};

// The fewest bytes a metadata entry (key length, type, one byte of value) and a tensor entry (name
// length, dimension count, one dimension, type, offset) can take: what bounds the announced counts.
const MIN_ENTRY_BYTES = 8 + 4 + 1;
const MIN_TENSOR_BYTES = 8 + 4 + 8 + 4 + 8;

/** Reads and checks the header of the GGUF file at `path`; rejects with UnusableGgufError when it cannot be used. */
export async function readGgufHeader(path: string, options: ReadGgufHeaderOptions = {}): Promise<GgufHeader> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const header = await parse(new BoundedReader(file, size, options.signal));
    const layout = ggufLayoutProblem(header);
    if (layout) throw new UnusableGgufError(layout);
    return header;
  } finally {
    await file.close();
  }
}

/**
 * The file's header once it has passed, which every other reader of a GGUF (node-llama-cpp's,
 * llama.cpp's) waits for; rejects with `model_failed`, the file and the reason otherwise.
 */
export async function checkedGguf(path: string, options: ReadGgufHeaderOptions = {}): Promise<GgufHeader> {
  try {
    return await readGgufHeader(path, options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const problem = problemOf(error);
    throw new QuireError('model_failed', `${path} cannot be used: ${problem}.`, { path, problem });
  }
}

/** Why the file at `path` cannot be used as a GGUF model, or null when its header passes. */
export async function ggufFileProblem(
  path: string,
  options: ReadGgufHeaderOptions = {},
): Promise<string | null> {
  try {
    await readGgufHeader(path, options);
    return null;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return problemOf(error);
  }
}

function problemOf(error: unknown): string {
  if (error instanceof UnusableGgufError) return error.reason;
  return `it cannot be read (${error instanceof Error ? error.message : String(error)})`;
}

/** Reads the file front to back through a window, refusing any read the file's size cannot hold. */
class BoundedReader {
  private window = Buffer.alloc(0);
  private windowStart = 0;
  /** Position of the next byte to read. */
  position = 0;

  constructor(
    private readonly file: FileHandle,
    readonly fileBytes: number,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Throws unless `bytes`, which the header claims (`claim` says how), fit in what is left of it. */
  expect(bytes: bigint, claim: () => string): void {
    const left = this.fileBytes - this.position;
    if (bytes <= BigInt(Math.min(left, MAX_HEADER_BYTES - this.position))) return;
    if (bytes <= BigInt(left))
      throw new UnusableGgufError(
        `it is corrupt: ${claim()}, past the ${MAX_HEADER_BYTES}-byte limit on a header`,
      );
    throw new UnusableGgufError(
      `it is corrupt or truncated: ${claim()}, more than the ${left} bytes left in the file can hold`,
    );
  }

  // `take` may replace the window: it is read only after the await.
  async u32(): Promise<number> {
    const at = await this.take(4);
    return this.window.readUInt32LE(at);
  }

  async u64(): Promise<bigint> {
    const at = await this.take(8);
    return this.window.readBigUInt64LE(at);
  }

  /** A GGUF string: its u64 length is weighed against what is left before its bytes are read. */
  async string(where: () => string): Promise<string> {
    const length = this.checkedLength(await this.u64(), where);
    const at = await this.take(length);
    return this.window.toString('utf8', at, at + length);
  }

  /**
   * Moves past `count` strings, synchronously while the window holds their lengths: a vocabulary is a
   * few hundred thousand strings, and an await for each made a real model's header take over a second.
   */
  async skipStrings(count: number, where: (index: number) => string): Promise<void> {
    for (let i = 0; i < count; i++) {
      if (!this.holds(8)) await this.refill(8);
      const at = this.advance(8);
      // As two halves: no bigint per string. Past 2^53 the sum is inexact but far over the limit anyway.
      const length = this.window.readUInt32LE(at) + this.window.readUInt32LE(at + 4) * 2 ** 32;
      if (
        length > MAX_STRING_BYTES ||
        length > this.fileBytes - this.position ||
        length > MAX_HEADER_BYTES - this.position
      )
        this.checkedLength(this.window.readBigUInt64LE(at), () => where(i));
      this.position += length;
    }
  }

  /** Moves past `bytes` that `expect` has passed. */
  skip(bytes: number): void {
    this.position += bytes;
  }

  async scalar(type: number, key: string): Promise<string | number | bigint | boolean> {
    if (type === STRING) return this.string(() => `its ${key}`);
    const size = FIXED_SIZES[type];
    if (size === undefined)
      throw new UnusableGgufError(`it is corrupt: its ${key} has unknown value type ${type}`);
    const at = await this.take(size);
    const w = this.window;
    switch (type) {
      case 0:
        return w.readUInt8(at);
      case 1:
        return w.readInt8(at);
      case 2:
        return w.readUInt16LE(at);
      case 3:
        return w.readInt16LE(at);
      case 4:
        return w.readUInt32LE(at);
      case 5:
        return w.readInt32LE(at);
      case 6:
        return w.readFloatLE(at);
      case 7:
        return w.readUInt8(at) !== 0;
      case 10:
        return w.readBigUInt64LE(at);
      case 11:
        return w.readBigInt64LE(at);
      default:
        return w.readDoubleLE(at);
    }
  }

  /** The window offset of the next `bytes` bytes, read in if needed; the position moves past them. */
  private async take(bytes: number): Promise<number> {
    if (!this.holds(bytes)) await this.refill(bytes);
    return this.advance(bytes);
  }

  private holds(bytes: number): boolean {
    return this.position + bytes <= this.windowStart + this.window.length;
  }

  private advance(bytes: number): number {
    const at = this.position - this.windowStart;
    this.position += bytes;
    return at;
  }

  /** Reads a new window at the position, of `bytes` at least, never past the file or the header's limit. */
  private async refill(bytes: number): Promise<void> {
    if (this.position + bytes > this.fileBytes)
      throw new UnusableGgufError(
        `it is truncated: the file ends inside its header (${this.fileBytes} bytes)`,
      );
    if (this.position + bytes > MAX_HEADER_BYTES)
      throw new UnusableGgufError(
        `it is corrupt: its header runs past the ${MAX_HEADER_BYTES}-byte limit on a header`,
      );
    this.signal?.throwIfAborted();
    const length = Math.min(Math.max(bytes, READ_CHUNK), this.fileBytes - this.position);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.file.read(buffer, 0, length, this.position);
    if (bytesRead < bytes) throw new UnusableGgufError('it is truncated: the file ended while it was read');
    this.window = buffer.subarray(0, bytesRead);
    this.windowStart = this.position;
  }

  private checkedLength(length: bigint, where: () => string): number {
    const claim = () => `${where()} claims a string of ${length} bytes`;
    if (length > BigInt(MAX_STRING_BYTES)) throw new UnusableGgufError(`it is corrupt: ${claim()}`);
    this.expect(length, claim);
    return Number(length);
  }
}

async function parse(reader: BoundedReader): Promise<GgufHeader> {
  if (reader.fileBytes < 4)
    throw new UnusableGgufError('it is not a GGUF file: it is shorter than a GGUF header');
  // "GGUF" read as a little-endian u32.
  if ((await reader.u32()) !== 0x46554747)
    throw new UnusableGgufError('it is not a GGUF file: it does not start with "GGUF"');
  const version = await reader.u32();
  if (version !== 2 && version !== 3)
    throw new UnusableGgufError(`it is GGUF version ${version}; only versions 2 and 3 can be read`);
  const tensorCount = await reader.u64();
  const entryCount = await reader.u64();
  reader.expect(
    tensorCount * BigInt(MIN_TENSOR_BYTES) + entryCount * BigInt(MIN_ENTRY_BYTES),
    () => `its header claims ${tensorCount} tensors and ${entryCount} metadata entries`,
  );
  if (tensorCount > BigInt(MAX_TENSORS))
    throw new UnusableGgufError(`it is corrupt: its header claims ${tensorCount} tensors`);

  const metadata = new Map<string, GgufValue>();
  for (let i = 0; i < Number(entryCount); i++) {
    const key = await reader.string(() => `its metadata key ${i}`);
    if (metadata.has(key))
      throw new UnusableGgufError(`it is corrupt: its metadata holds ${shown(key)} twice`);
    const type = await reader.u32();
    const value =
      type === ARRAY ? await readArray(reader, shown(key)) : await reader.scalar(type, shown(key));
    metadata.set(key, value);
  }

  const tensors: GgufTensor[] = [];
  const relativeOffsets: bigint[] = [];
  let parameters = 0n;
  for (let i = 0; i < Number(tensorCount); i++) {
    const name = await reader.string(() => `the name of its tensor ${i}`);
    const label = shown(name);
    const count = await reader.u32();
    if (count < 1 || count > MAX_DIMENSIONS)
      throw new UnusableGgufError(`it is corrupt: tensor ${label} has ${count} dimensions`);
    const dimensions: bigint[] = [];
    let elements = 1n;
    for (let d = 0; d < count; d++) {
      const size = await reader.u64();
      if (size === 0n || size > INT64_MAX)
        throw new UnusableGgufError(`it is corrupt: tensor ${label} has a dimension of ${size}`);
      elements *= size;
      if (elements > INT64_MAX)
        throw new UnusableGgufError(
          `it is corrupt: tensor ${label} claims more elements than llama.cpp can count`,
        );
      dimensions.push(size);
    }
    parameters += elements;
    const ggmlType = await reader.u32();
    relativeOffsets.push(await reader.u64());
    tensors.push({ name, dimensions, ggmlType, fileOffset: 0n });
  }

  const alignment = metadata.get('general.alignment') ?? 32;
  if (typeof alignment !== 'number' || alignment < 1 || (alignment & (alignment - 1)) !== 0)
    throw new UnusableGgufError(`it is corrupt: its alignment ${String(alignment)} is not a power of two`);
  const dataOffset = BigInt(Math.ceil(reader.position / alignment) * alignment);
  tensors.forEach((tensor, i) => (tensor.fileOffset = dataOffset + relativeOffsets[i]!));
  const text = (key: string) => {
    const value = metadata.get(key);
    return typeof value === 'string' ? value : undefined;
  };
  return {
    fileBytes: reader.fileBytes,
    version,
    metadata,
    tensors,
    dataOffset,
    parameters: Number(parameters),
    architecture: text('general.architecture'),
    name: text('general.name'),
  };
}

/** A name from the header as a reason shows it: a damaged one can be megabytes long. */
function shown(name: string): string {
  return name.length > 80 ? `${name.slice(0, 80)}…` : name;
}

/** Skips an array's items after checking that its announced length fits in what is left. */
async function readArray(reader: BoundedReader, key: string): Promise<GgufArray> {
  const itemType = await reader.u32();
  const length = await reader.u64();
  const size = FIXED_SIZES[itemType];
  if (size === undefined && itemType !== STRING)
    throw new UnusableGgufError(`it is corrupt: its ${key} array has items of unknown type ${itemType}`);
  // A string takes its 8-byte length at least.
  reader.expect(length * BigInt(size ?? 8), () => `its ${key} array claims ${length} items`);
  if (size !== undefined) reader.skip(Number(length) * size);
  else await reader.skipStrings(Number(length), (i) => `item ${i} of its ${key} array`);
  return { itemType, length: Number(length) };
}
