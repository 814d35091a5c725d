import { get, i32, load, op, set, simd, simdOp, splat, store, tee } from './wasmAssembly';

/**
 * The listing of `widenHalves`: IEEE fp16 values to f32, eight per step, so full-precision page
 * vectors read from the index go straight into the MaxSim kernel's memory without a JavaScript
 * conversion (which costs about as much as scoring the page).
 *
 * Parameters: src (byte offset of the fp16 values), count (values, rounded up to a multiple of 8:
 * the last step reads and writes up to 7 values past the end), dst (byte offset of the f32 out).
 *
 * Each value's exponent and mantissa bits move up 13 places into f32 position, and one multiply by
 * 2^112 moves the exponent from fp16's bias (15) to f32's (127); that also turns fp16 subnormals and
 * zero into the right f32 values. The sign bit is put back after. Infinity and NaN (never in a unit
 * vector) come out as large finite numbers.
 */

const SRC = 0;
const COUNT = 1;
const DST = 2;
const AT = 3;
const HALVES = 4;
const WIDE = 5;
export const widenHalvesLocals = [
  [1, 0x7f],
  [2, 0x7b],
];

const i32x4Splat = (value: number) =>
  splat([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >>> 24]);
const simdInstruction = (code: number[]) => [simd, ...code];

export function widenHalvesBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  // f32x4 of the four fp16 values held as u32 lanes in WIDE.
  const widened = [
    get(WIDE),
    i32x4Splat(0x7fff),
    simdInstruction(simdOp.v128And),
    i32(13),
    simdInstruction(simdOp.i32x4Shl),
    i32x4Splat(0x77800000),
    simdInstruction(simdOp.f32x4Mul),
    get(WIDE),
    i32x4Splat(0x8000),
    simdInstruction(simdOp.v128And),
    i32(16),
    simdInstruction(simdOp.i32x4Shl),
    simdInstruction(simdOp.v128Or),
  ];
  const storeAt = (offset: number) => [simd, ...simdOp.v128Store, 0, offset];
  const outAddress = [get(DST), get(AT), i32(1), [op.i32Shl, op.i32Add]];

  emit([op.block, op.voidBlock], get(COUNT), [op.i32Eqz, op.brIf, 0]);
  emit(i32(0), set(AT), [op.loop, op.voidBlock]);
  emit(get(SRC), get(AT), [op.i32Add], load, set(HALVES));
  emit(...outAddress, get(HALVES), simdInstruction(simdOp.i32x4ExtendLowI16x8U), set(WIDE));
  emit(...widened, store);
  emit(...outAddress, get(HALVES), simdInstruction(simdOp.i32x4ExtendHighI16x8U), set(WIDE));
  emit(...widened, storeAt(16));
  emit(get(AT), i32(16), [op.i32Add], tee(AT), get(COUNT), i32(1), [
    op.i32Shl,
    op.i32LtU,
    op.brIf,
    0,
    op.end,
  ]);
  emit([op.end]);
  emit([op.end]);
  return code;
}
