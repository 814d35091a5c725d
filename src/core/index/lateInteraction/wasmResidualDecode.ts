import {
  f32x4Add,
  f32x4Mul,
  get,
  i32,
  laneSum,
  load,
  op,
  set,
  simd,
  simdOp,
  splat,
  store,
  tee,
  unsignedLeb,
} from './wasmAssembly';

/**
 * The listing of `decodeResiduals2` / `decodeResiduals4`: rebuilds coded page vectors (the
 * ResidualCodec's decode) in WebAssembly, straight into the memory the MaxSim kernel reads, so the
 * candidate stage neither decodes in JavaScript nor copies decoded rows across.
 *
 * Parameters, all byte offsets or counts:
 * - codes: the rows' packed residuals, `dimensions * bits / 8` bytes per row, rows contiguous;
 * - ids: one u16 centroid id per row;
 * - rows;
 * - centroids: f32 `[centroid][dimension]`;
 * - table: the codec's per-byte table, f32 `[byte position][256][dimensions per byte]`;
 * - rowBytes: `dimensions * 4`, a multiple of 16;
 * - out: f32 `[row][dimension]`, each row scaled to unit length (a zero row stays zero).
 *
 * Every four dimensions take one 16-byte step through the table in both layouts: one byte of
 * four 2-bit codes, or two bytes of two 4-bit codes (two 8-byte entries joined into one vector).
 */

const CODES = 0;
const IDS = 1;
const ROWS = 2;
const CENTROIDS = 3;
const TABLE = 4;
const ROW_BYTES = 5;
const OUT = 6;
const ROW = 7;
const CENTROID_PTR = 8;
const OUT_PTR = 9;
const TABLE_PTR = 10;
const STEP = 11;
const NORM_SQUARED = 12;
const VALUE = 13;
const SQUARES = 14;
const SCALE = 15;
export const decodeResidualsLocals = [
  [5, 0x7f],
  [1, 0x7d],
  [3, 0x7b],
];

/** Bytes the table advances per four dimensions, in either layout: 256 entries of 16 bytes. */
const tableStepBytes = 4096;

export function decodeResidualsBody(bits: 2 | 4): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  const codeByte = (offset: number) => [...get(CODES), op.i32Load8U, 0, offset];
  // Runs `body` for STEP = 0, 16, ... below the row size.
  const overRow = (body: number[][]) => {
    emit(i32(0), set(STEP), [op.loop, op.voidBlock], ...body);
    emit(get(STEP), i32(16), [op.i32Add], tee(STEP), get(ROW_BYTES), [op.i32LtU, op.brIf, 0, op.end]);
  };
  // The four table values for the code byte(s) at CODES, pushed as one v128.
  const tableValues =
    bits === 2
      ? [get(TABLE_PTR), codeByte(0), i32(4), [op.i32Shl, op.i32Add], load]
      : [
          get(TABLE_PTR),
          codeByte(0),
          i32(3),
          [op.i32Shl, op.i32Add],
          [simd, ...simdOp.v128Load64Zero, 3, 0],
          set(VALUE),
          // The second byte position's entries start 256 x 8 bytes further on.
          get(TABLE_PTR),
          codeByte(1),
          i32(3),
          [op.i32Shl, op.i32Add],
          get(VALUE),
          [simd, ...simdOp.v128Load64Lane, 3, ...unsignedLeb(2048), 1],
        ];
  const codeBytesPerStep = bits === 2 ? 1 : 2;

  emit([op.block, op.voidBlock], get(ROWS), [op.i32Eqz, op.brIf, 0]);
  emit(i32(0), set(ROW), get(OUT), set(OUT_PTR), [op.loop, op.voidBlock]);
  emit(get(CENTROIDS), get(IDS), [op.i32Load16U, 1, 0], get(ROW_BYTES), [op.i32Mul, op.i32Add]);
  emit(set(CENTROID_PTR), get(TABLE), set(TABLE_PTR), splat([0, 0, 0, 0]), set(SQUARES));
  overRow([
    ...tableValues,
    get(CENTROID_PTR),
    get(STEP),
    [op.i32Add],
    load,
    f32x4Add,
    set(VALUE),
    get(OUT_PTR),
    get(STEP),
    [op.i32Add],
    get(VALUE),
    store,
    get(SQUARES),
    get(VALUE),
    get(VALUE),
    f32x4Mul,
    f32x4Add,
    set(SQUARES),
    get(CODES),
    i32(codeBytesPerStep),
    [op.i32Add],
    set(CODES),
    get(TABLE_PTR),
    i32(tableStepBytes),
    [op.i32Add],
    set(TABLE_PTR),
  ]);
  emit(laneSum(SQUARES), tee(NORM_SQUARED), [op.f32Const, 0, 0, 0, 0, op.f32Gt]);
  emit([op.if, op.voidBlock]);
  emit([op.f32Const, 0x00, 0x00, 0x80, 0x3f], get(NORM_SQUARED), [op.f32Sqrt, op.f32Div]);
  emit([simd, ...simdOp.f32x4Splat], set(SCALE));
  overRow([
    get(OUT_PTR),
    get(STEP),
    [op.i32Add],
    get(OUT_PTR),
    get(STEP),
    [op.i32Add],
    load,
    get(SCALE),
    f32x4Mul,
    store,
  ]);
  emit([op.end]);
  emit(get(IDS), i32(2), [op.i32Add], set(IDS), get(OUT_PTR), get(ROW_BYTES), [op.i32Add], set(OUT_PTR));
  emit(get(ROW), i32(1), [op.i32Add], tee(ROW), get(ROWS), [op.i32LtU, op.brIf, 0, op.end]);
  emit([op.end]);
  emit([op.end]);
  return code;
}
