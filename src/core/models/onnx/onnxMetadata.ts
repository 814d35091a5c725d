/*
 * Reads an ONNX file's metadata (ModelProto.metadata_props, field 14) without loading its graph: the
 * top-level protobuf fields are walked and skipped by their lengths, so a 1 GB model costs a few reads.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { QuireError } from '../../../shared/errors';

const METADATA_PROPS_FIELD = 14;
const MAX_METADATA_BYTES = 64 * 1024 * 1024;

interface Varint {
  value: number;
  bytes: number;
}

function readVarint(buffer: Uint8Array, offset: number): Varint | null {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10 && offset + i < buffer.length; i++) {
    const byte = buffer[offset + i]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return { value, bytes: i + 1 };
    scale *= 128;
  }
  return null;
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** One StringStringEntryProto: key (field 1) and value (field 2). */
function parseEntry(bytes: Uint8Array): [string, string] | null {
  const decoder = new TextDecoder();
  let key = '';
  let value = '';
  let offset = 0;
  while (offset < bytes.length) {
    const tag = readVarint(bytes, offset);
    if (!tag || (tag.value & 7) !== 2) return null;
    offset += tag.bytes;
    const length = readVarint(bytes, offset);
    if (!length) return null;
    offset += length.bytes;
    const text = decoder.decode(bytes.subarray(offset, offset + length.value));
    if (tag.value >>> 3 === 1) key = text;
    else if (tag.value >>> 3 === 2) value = text;
    offset += length.value;
  }
  return [key, value];
}

/** The model's metadata as a map; empty when it has none. Rejects a file that is not a readable ONNX model. */
export async function readOnnxMetadata(path: string): Promise<Map<string, string>> {
  const notOnnx = (why: string) =>
    new QuireError('model_failed', `${path} is not a readable ONNX model (${why}).`, { modelPath: path });
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw new QuireError('not_found', `Cannot open the page embedder ${path}: ${(error as Error).message}`);
  }
  try {
    const size = (await file.stat()).size;
    const metadata = new Map<string, string>();
    let position = 0;
    while (position < size) {
      const head = await readAt(file, position, 20);
      const tag = readVarint(head, 0);
      if (!tag || tag.value === 0) throw notOnnx(`bad field at byte ${position}`);
      const field = tag.value >>> 3;
      const wireType = tag.value & 7;
      let next = position + tag.bytes;
      if (wireType === 0) {
        const varint = readVarint(head, tag.bytes);
        if (!varint) throw notOnnx(`bad number at byte ${position}`);
        next += varint.bytes;
      } else if (wireType === 1) {
        next += 8;
      } else if (wireType === 5) {
        next += 4;
      } else if (wireType === 2) {
        const length = readVarint(head, tag.bytes);
        if (!length) throw notOnnx(`bad length at byte ${position}`);
        next += length.bytes;
        if (field === METADATA_PROPS_FIELD) {
          if (length.value > MAX_METADATA_BYTES) throw notOnnx('metadata too large');
          const entry = parseEntry(await readAt(file, next, length.value));
          if (entry) metadata.set(entry[0], entry[1]);
        }
        next += length.value;
      } else {
        throw notOnnx(`unknown wire type ${wireType} at byte ${position}`);
      }
      if (next > size) throw notOnnx('truncated');
      position = next;
    }
    return metadata;
  } finally {
    await file.close();
  }
}
