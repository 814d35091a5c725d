import { open } from 'node:fs/promises';

/*
 * Reads a GGUF file's header (metadata and tensor infos, not the weights) to check that a fetched file
 * is the model it claims to be and to count its parameters. Only the header is read, growing the read
 * until it fits, so a 1 GB model costs a few megabytes. Written here rather than node-llama-cpp's
 * readGgufFileInfo (what the product uses, on files it was given): these files are read before their
 * hash is known, and that reader aborts the whole process on a header claiming a huge array.
 */

export interface GgufHeader {
  version: number;
  tensorCount: number;
  /** Scalar metadata (numbers, strings, booleans); arrays are kept as their length only. */
  metadata: Map<string, string | number | boolean>;
  /** The sum of every tensor's element count. */
  parameters: number;
  architecture: string | undefined;
  name: string | undefined;
}

const MAGIC = 'GGUF';
// Far above any real model's counts: past these the header is damaged, not large.
const MAX_TENSORS = 100_000;
const MAX_METADATA = 100_000;
const MAX_ARRAY_LENGTH = 50_000_000;
const MAX_DIMS = 4;
const MAX_HEADER_BYTES = 512 * 1024 * 1024;

export class NotGgufError extends Error {}

/** Thrown when the header runs past the bytes read so far: read more and parse again. */
class NeedMoreBytes extends Error {}

class Cursor {
  offset = 0;
  constructor(private readonly buffer: Buffer) {}

  private take(bytes: number): number {
    if (this.offset + bytes > this.buffer.length) throw new NeedMoreBytes();
    const at = this.offset;
    this.offset += bytes;
    return at;
  }
  u8(): number {
    return this.buffer.readUInt8(this.take(1));
  }
  u32(): number {
    return this.buffer.readUInt32LE(this.take(4));
  }
  u64(): bigint {
    return this.buffer.readBigUInt64LE(this.take(8));
  }
  /** A u64 count that must stay below `max`. */
  count(what: string, max: number): number {
    const value = this.u64();
    if (value > BigInt(max)) throw new NotGgufError(`${what} ${value} is not a sane count`);
    return Number(value);
  }
  string(): string {
    const length = this.count('a string length of', MAX_ARRAY_LENGTH);
    const at = this.take(length);
    return this.buffer.toString('utf8', at, at + length);
  }
  skip(bytes: number): void {
    this.take(bytes);
  }
  scalar(type: number): string | number | boolean {
    const at = () => this.take(SCALAR_SIZES[type] ?? 0);
    switch (type) {
      case 0:
        return this.buffer.readUInt8(at());
      case 1:
        return this.buffer.readInt8(at());
      case 2:
        return this.buffer.readUInt16LE(at());
      case 3:
        return this.buffer.readInt16LE(at());
      case 4:
        return this.buffer.readUInt32LE(at());
      case 5:
        return this.buffer.readInt32LE(at());
      case 6:
        return this.buffer.readFloatLE(at());
      case 7:
        return this.buffer.readUInt8(at()) !== 0;
      case 8:
        return this.string();
      case 10:
        return Number(this.buffer.readBigUInt64LE(at()));
      case 11:
        return Number(this.buffer.readBigInt64LE(at()));
      case 12:
        return this.buffer.readDoubleLE(at());
      default:
        throw new NotGgufError(`unknown metadata value type ${type}`);
    }
  }
}

// Byte sizes of GGUF's fixed-size value types, by type number (8 string and 9 array vary).
const SCALAR_SIZES: Record<number, number> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};

/** Parses a header from the file's first bytes; throws NeedMoreBytes when they are not enough. */
function parse(buffer: Buffer, fileBytes: number): GgufHeader {
  if (buffer.length < 4) throw new NeedMoreBytes();
  if (buffer.toString('latin1', 0, 4) !== MAGIC) throw new NotGgufError('does not start with GGUF');
  const cursor = new Cursor(buffer);
  cursor.skip(4);
  const version = cursor.u32();
  if (version !== 2 && version !== 3) throw new NotGgufError(`GGUF version ${version} is not 2 or 3`);
  const tensorCount = cursor.count('a tensor count of', MAX_TENSORS);
  const metadataCount = cursor.count('a metadata count of', MAX_METADATA);
  const metadata = new Map<string, string | number | boolean>();
  for (let i = 0; i < metadataCount; i++) {
    const key = cursor.string();
    const type = cursor.u32();
    if (type === 9) {
      const itemType = cursor.u32();
      const length = cursor.count('an array length of', MAX_ARRAY_LENGTH);
      const size = SCALAR_SIZES[itemType];
      if (size !== undefined) cursor.skip(size * length);
      else if (itemType === 8) for (let j = 0; j < length; j++) cursor.string();
      else throw new NotGgufError(`unsupported array item type ${itemType} in ${key}`);
      metadata.set(key, length);
    } else {
      metadata.set(key, cursor.scalar(type));
    }
  }
  let parameters = 0n;
  let lastOffset = 0n;
  for (let i = 0; i < tensorCount; i++) {
    const name = cursor.string();
    const dims = cursor.u32();
    if (dims < 1 || dims > MAX_DIMS) throw new NotGgufError(`tensor ${name} has ${dims} dimensions`);
    let elements = 1n;
    for (let d = 0; d < dims; d++) elements *= cursor.u64();
    cursor.u32(); // the ggml type
    const offset = cursor.u64();
    if (offset > lastOffset) lastOffset = offset;
    parameters += elements;
  }
  const alignment = Number(metadata.get('general.alignment') ?? 32);
  const dataStart = Math.ceil(cursor.offset / alignment) * alignment;
  // A file cut short (a missing chunk) ends before its last tensor starts.
  if (tensorCount > 0 && BigInt(dataStart) + lastOffset >= BigInt(fileBytes)) {
    throw new NotGgufError(`its tensors run past the end of the file (${fileBytes} bytes): it is truncated`);
  }
  const text = (key: string) => {
    const value = metadata.get(key);
    return typeof value === 'string' ? value : undefined;
  };
  return {
    version,
    tensorCount,
    metadata,
    parameters: Number(parameters),
    architecture: text('general.architecture'),
    name: text('general.name'),
  };
}

/** Reads and checks the header of the GGUF file at `path`; throws NotGgufError when it is not one. */
export async function readGgufHeader(path: string): Promise<GgufHeader> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    let length = Math.min(size, 1024 * 1024);
    for (;;) {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, 0);
      try {
        return parse(buffer.subarray(0, bytesRead), size);
      } catch (error) {
        if (!(error instanceof NeedMoreBytes)) throw error;
        if (length >= size || length >= MAX_HEADER_BYTES) {
          throw new NotGgufError('its header runs past the end of the file');
        }
        length = Math.min(size, length * 4, MAX_HEADER_BYTES);
      }
    }
  } finally {
    await file.close();
  }
}
