import {
  f32x4Add,
  f32x4Max,
  f32x4Mul,
  get,
  i32,
  laneSum,
  load,
  minusInfinityBytes,
  op,
  section,
  set,
  splat,
  store,
  tee,
  unsignedLeb,
  utf8,
  vector,
} from './wasmAssembly';
import { widenHalvesBody, widenHalvesLocals } from './wasmHalfWidening';
import { decodeResidualsBody, decodeResidualsLocals } from './wasmResidualDecode';

/**
 * The WebAssembly SIMD kernels behind the fast paths, assembled here byte by byte from the listings
 * below, so there is no build step and no binary asset. Its exported functions:
 * - `bestMatches`: for each row of a left matrix, the best dot product over the rows of a right
 *   matrix, and which row gave it. MaxSim is that with the query on the left and a page on the right
 *   (sum of the maxima); codebook assignment is that with page vectors on the left and centroids on
 *   the right (the argmax). Four 32-bit lanes per instruction and four left rows per pass over the
 *   right rows make it several times faster than the same loops in JavaScript.
 * - `coarseScores`: for each page, given the distinct centroid ids of its vectors and a table of
 *   centroid-by-query-vector cosines, the sum over query vectors of the best centroid cosine.
 * - `decodeResiduals2` / `decodeResiduals4`: coded page vectors rebuilt (wasmResidualDecode).
 * - `widenHalves`: fp16 values to f32 (wasmHalfWidening).
 * The instruction vocabulary lives in wasmAssembly.
 */

// bestMatches: parameters, then locals, by index.
const A = 0; // left matrix pointer
const A_ROWS = 1; // multiple of 4
const B = 2; // right matrix pointer
const B_ROWS = 3;
const ROW_BYTES = 4; // dimensions * 4, multiple of 16
const OUT_MAX = 5; // f32 per left row
const OUT_ARG = 6; // i32 per left row
const LEFT_ROW = 7;
const RIGHT_PTR = 8;
const RIGHT_ROW = 9;
const K = 10;
const P = [11, 12, 13, 14];
const ARG = [15, 16, 17, 18];
const BEST = [19, 20, 21, 22];
const SUM = 23;
const ACC = [24, 25, 26, 27];
const V = 28;
const bestMatchesLocals = [
  [12, 0x7f],
  [5, 0x7d],
  [5, 0x7b],
];

function bestMatchesBody(): number[] {
  const minusInfinity = [op.f32Const, ...minusInfinityBytes];
  const v128Zero = splat([0, 0, 0, 0]);

  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));

  emit([op.block, op.voidBlock], get(A_ROWS), [op.i32Eqz, op.brIf, 0]);
  emit(i32(0), set(LEFT_ROW));
  emit([op.loop, op.voidBlock]);
  // Pointers to the four left rows of this pass.
  emit(get(A), get(LEFT_ROW), get(ROW_BYTES), [op.i32Mul, op.i32Add], tee(P[0]!));
  for (let r = 1; r < 4; r++) emit(get(ROW_BYTES), [op.i32Add], r < 3 ? tee(P[r]!) : set(P[r]!));
  for (let r = 0; r < 4; r++) emit(minusInfinity, set(BEST[r]!), i32(0), set(ARG[r]!));
  emit(get(B), set(RIGHT_PTR), i32(0), set(RIGHT_ROW));
  emit([op.block, op.voidBlock], get(B_ROWS), [op.i32Eqz, op.brIf, 0]);
  emit([op.loop, op.voidBlock]);
  for (let r = 0; r < 4; r++) emit(v128Zero, set(ACC[r]!));
  emit(i32(0), set(K));
  emit([op.loop, op.voidBlock]);
  emit(get(RIGHT_PTR), get(K), [op.i32Add], load, set(V));
  for (let r = 0; r < 4; r++)
    emit(get(ACC[r]!), get(P[r]!), get(K), [op.i32Add], load, get(V), f32x4Mul, f32x4Add, set(ACC[r]!));
  emit(get(K), i32(16), [op.i32Add], tee(K), get(ROW_BYTES), [op.i32LtU, op.brIf, 0], [op.end]);
  for (let r = 0; r < 4; r++) {
    emit(laneSum(ACC[r]!), tee(SUM), get(BEST[r]!), [op.f32Gt]);
    emit([op.if, op.voidBlock], get(SUM), set(BEST[r]!), get(RIGHT_ROW), set(ARG[r]!), [op.end]);
  }
  emit(get(RIGHT_PTR), get(ROW_BYTES), [op.i32Add], set(RIGHT_PTR));
  emit(get(RIGHT_ROW), i32(1), [op.i32Add], tee(RIGHT_ROW), get(B_ROWS), [op.i32LtU, op.brIf, 0], [op.end]);
  emit([op.end]);
  // Results for the four left rows: K is free again and holds the byte offset of the first.
  emit(get(LEFT_ROW), i32(4), [op.i32Mul], set(K));
  for (let r = 0; r < 4; r++) {
    emit(get(OUT_MAX), get(K), [op.i32Add], get(BEST[r]!), [op.f32Store, 2, ...unsignedLeb(r * 4)]);
    emit(get(OUT_ARG), get(K), [op.i32Add], get(ARG[r]!), [op.i32Store, 2, ...unsignedLeb(r * 4)]);
  }
  emit(get(LEFT_ROW), i32(4), [op.i32Add], tee(LEFT_ROW), get(A_ROWS), [op.i32LtU, op.brIf, 0], [op.end]);
  emit([op.end]);
  emit([op.end]);
  return code;
}

// coarseScores: parameters, then locals, by index.
const CODES = 0; // u16 centroid ids, every page's ids contiguous
const STARTS = 1; // i32 per page plus one: index of the page's first id in CODES
const PAGES = 2;
const TABLE = 3; // f32 [centroid][query vector], rows padded to a multiple of 4 with zeros
const TABLE_ROW_BYTES = 4;
const SCRATCH = 5; // one table row of scratch for the running maxima
const OUT = 6; // f32 per page
const PAGE = 7;
const CODE_PTR = 8;
const CODE_END = 9;
const LANE = 10;
const ROW_PTR = 11;
const TOTAL = 12;
const coarseScoresLocals = [
  [5, 0x7f],
  [1, 0x7b],
];

function coarseScoresBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  const startOf = (offset: number) => [
    ...get(STARTS),
    ...get(PAGE),
    ...i32(2),
    op.i32Shl,
    op.i32Add,
    op.i32Load,
    2,
    offset,
  ];
  // Runs `body` for LANE = 0, 16, ... below the table row size.
  const overLanes = (body: number[][]) => {
    emit(i32(0), set(LANE), [op.loop, op.voidBlock], ...body);
    emit(get(LANE), i32(16), [op.i32Add], tee(LANE), get(TABLE_ROW_BYTES), [op.i32LtU, op.brIf, 0, op.end]);
  };

  emit([op.block, op.voidBlock], get(PAGES), [op.i32Eqz, op.brIf, 0]);
  emit(i32(0), set(PAGE), [op.loop, op.voidBlock]);
  emit(get(CODES), startOf(0), i32(1), [op.i32Shl, op.i32Add], set(CODE_PTR));
  emit(get(CODES), startOf(4), i32(1), [op.i32Shl, op.i32Add], set(CODE_END));
  overLanes([get(SCRATCH), get(LANE), [op.i32Add], splat(minusInfinityBytes), store]);
  emit([op.block, op.voidBlock], get(CODE_PTR), get(CODE_END), [op.i32GeU, op.brIf, 0]);
  emit([op.loop, op.voidBlock]);
  emit(
    get(TABLE),
    get(CODE_PTR),
    [op.i32Load16U, 1, 0],
    get(TABLE_ROW_BYTES),
    [op.i32Mul, op.i32Add],
    set(ROW_PTR),
  );
  overLanes([
    get(SCRATCH),
    get(LANE),
    [op.i32Add],
    get(SCRATCH),
    get(LANE),
    [op.i32Add],
    load,
    get(ROW_PTR),
    get(LANE),
    [op.i32Add],
    load,
    f32x4Max,
    store,
  ]);
  emit(get(CODE_PTR), i32(2), [op.i32Add], tee(CODE_PTR), get(CODE_END), [op.i32LtU, op.brIf, 0, op.end]);
  emit([op.end]);
  emit(splat([0, 0, 0, 0]), set(TOTAL));
  overLanes([get(TOTAL), get(SCRATCH), get(LANE), [op.i32Add], load, f32x4Add, set(TOTAL)]);
  emit(get(OUT), get(PAGE), i32(2), [op.i32Shl, op.i32Add], laneSum(TOTAL), [op.f32Store, 2, 0]);
  emit(get(PAGE), i32(1), [op.i32Add], tee(PAGE), get(PAGES), [op.i32LtU, op.brIf, 0, op.end]);
  emit([op.end]);
  emit([op.end]);
  return code;
}

function assembleModule(): Uint8Array {
  const i32Type = 0x7f;
  const params = (count: number) => [0x60, ...vector(new Array<number[]>(count).fill([i32Type])), 0];
  const functionBody = (locals: number[][], body: number[]) => {
    const bytes = [...vector(locals), ...body];
    return [...unsignedLeb(bytes.length), ...bytes];
  };
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([params(7), params(3)])),
    ...section(2, vector([[...utf8('env'), ...utf8('memory'), 0x02, 0x00, 0x01]])),
    ...section(3, vector([[0], [0], [0], [0], [1]])),
    ...section(
      7,
      vector([
        [...utf8('bestMatches'), 0x00, 0x00],
        [...utf8('coarseScores'), 0x00, 0x01],
        [...utf8('decodeResiduals2'), 0x00, 0x02],
        [...utf8('decodeResiduals4'), 0x00, 0x03],
        [...utf8('widenHalves'), 0x00, 0x04],
      ]),
    ),
    ...section(
      10,
      vector([
        functionBody(bestMatchesLocals, bestMatchesBody()),
        functionBody(coarseScoresLocals, coarseScoresBody()),
        functionBody(decodeResidualsLocals, decodeResidualsBody(2)),
        functionBody(decodeResidualsLocals, decodeResidualsBody(4)),
        functionBody(widenHalvesLocals, widenHalvesBody()),
      ]),
    ),
  ];
  return Uint8Array.from(bytes);
}

export type BestMatchesExport = (
  a: number,
  aRows: number,
  b: number,
  bRows: number,
  rowBytes: number,
  outMax: number,
  outArg: number,
) => void;

// The WebAssembly global, typed by hand: this project's lib settings include no DOM types.
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasmApi = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: object | null | undefined;

function compiledModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = wasmApi ? new wasmApi.Module(assembleModule()) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** (codes, starts, pages, table, tableRowBytes, scratch, out) byte offsets and counts. */
export type CoarseScoresExport = (
  codes: number,
  starts: number,
  pages: number,
  table: number,
  tableRowBytes: number,
  scratch: number,
  out: number,
) => void;

/** (codes, ids, rows, centroids, table, rowBytes, out) byte offsets and counts; see wasmResidualDecode. */
export type DecodeResidualsExport = CoarseScoresExport;

/** (src, count, dst): `count` fp16 values (a multiple of 8) at byte offset src to f32 at dst. */
export type WidenHalvesExport = (src: number, count: number, dst: number) => void;

export interface WasmKernels {
  memory: WasmMemory;
  bestMatches: BestMatchesExport;
  coarseScores: CoarseScoresExport;
  /** By residual bits. */
  decodeResiduals: { 2: DecodeResidualsExport; 4: DecodeResidualsExport };
  widenHalves: WidenHalvesExport;
}

export const wasmPageBytes = 65536;

/** A fresh instance with its own memory; null when the runtime lacks WebAssembly SIMD. */
export function instantiateKernels(): WasmKernels | null {
  const module = compiledModule();
  if (!module || !wasmApi) return null;
  const memory = new wasmApi.Memory({ initial: 1 });
  const { exports } = new wasmApi.Instance(module, { env: { memory } });
  return {
    memory,
    bestMatches: exports.bestMatches as BestMatchesExport,
    coarseScores: exports.coarseScores as CoarseScoresExport,
    decodeResiduals: {
      2: exports.decodeResiduals2 as DecodeResidualsExport,
      4: exports.decodeResiduals4 as DecodeResidualsExport,
    },
    widenHalves: exports.widenHalves as WidenHalvesExport,
  };
}

/** Grows `memory` to hold at least `bytes`. */
export function ensureMemory(memory: WasmMemory, bytes: number): void {
  const missing = bytes - memory.buffer.byteLength;
  if (missing > 0) memory.grow(Math.ceil(missing / wasmPageBytes));
}
