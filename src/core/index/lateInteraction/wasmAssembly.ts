/**
 * The vocabulary the WebAssembly kernels are written in: opcodes, LEB128 numbers, module sections
 * and a few instruction sequences, so each kernel reads as a listing rather than as raw bytes.
 */

export const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  i32Load8U: 0x2d,
  i32Load16U: 0x2f,
  i32Store: 0x36,
  f32Store: 0x38,
  i32Const: 0x41,
  f32Const: 0x43,
  i32Eqz: 0x45,
  i32LtU: 0x49,
  i32GeU: 0x4f,
  f32Gt: 0x5e,
  i32Add: 0x6a,
  i32Mul: 0x6c,
  i32Shl: 0x74,
  f32Sqrt: 0x91,
  f32Add: 0x92,
  f32Div: 0x95,
  voidBlock: 0x40,
} as const;
export const simd = 0xfd;
export const simdOp = {
  v128Load: [0x00],
  v128Store: [0x0b],
  v128Const: [0x0c],
  f32x4Splat: [0x13],
  f32x4ExtractLane: [0x1f],
  v128Load64Lane: [0x57],
  v128Load64Zero: [0x5d],
  v128And: [0x4e],
  v128Or: [0x50],
  i32x4ExtendLowI16x8U: [0xa9, 0x01],
  i32x4ExtendHighI16x8U: [0xaa, 0x01],
  i32x4Shl: [0xab, 0x01],
  f32x4Add: [0xe4, 0x01],
  f32x4Mul: [0xe6, 0x01],
  f32x4Max: [0xe9, 0x01],
};
export const get = (i: number) => [op.localGet, i];
export const set = (i: number) => [op.localSet, i];
export const tee = (i: number) => [op.localTee, i];
export const i32 = (v: number) => [op.i32Const, ...signedLeb(v)];
export const load = [simd, ...simdOp.v128Load, 0, 0];
export const store = [simd, ...simdOp.v128Store, 0, 0];
export const f32x4Add = [simd, ...simdOp.f32x4Add];
export const f32x4Mul = [simd, ...simdOp.f32x4Mul];
export const f32x4Max = [simd, ...simdOp.f32x4Max];
export const lane = (l: number) => [simd, ...simdOp.f32x4ExtractLane, l];
export const splat = (bytes: number[]) => [simd, ...simdOp.v128Const, ...bytes, ...bytes, ...bytes, ...bytes];
export const minusInfinityBytes = [0x00, 0x00, 0x80, 0xff];
/** Sum of the four lanes of the v128 in local `i`. */
export const laneSum = (i: number) => [
  ...get(i),
  ...lane(0),
  ...get(i),
  ...lane(1),
  op.f32Add,
  ...get(i),
  ...lane(2),
  op.f32Add,
  ...get(i),
  ...lane(3),
  op.f32Add,
];

export function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

export function signedLeb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
}

export const utf8 = (text: string) => [
  ...unsignedLeb(text.length),
  ...Array.from(text, (c) => c.charCodeAt(0)),
];
export const section = (id: number, body: number[]) => [id, ...unsignedLeb(body.length), ...body];
export const vector = (items: number[][]) => [...unsignedLeb(items.length), ...items.flat()];
