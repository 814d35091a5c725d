/**
 * Every coded page in two flat, growable arrays: a centroid id per vector and the vector's packed
 * residual, contiguous per page. Removing a page leaves a tombstone; `compact` squeezes the holes
 * out. Slots are dense page numbers that stay valid until the next compaction.
 */
export class CompactPageStore {
  readonly residualBytes: number;
  private centroidIds = new Uint16Array(4096);
  private residualCodes: Uint8Array;
  private usedRows = 0;
  private deadRows = 0;
  private slotKeys: Array<string | undefined> = [];
  private slotFirstRow: number[] = [];
  private slotRowCount: number[] = [];
  private slotByKey = new Map<string, number>();

  constructor(residualBytes: number) {
    this.residualBytes = residualBytes;
    this.residualCodes = new Uint8Array(4096 * residualBytes);
  }

  get size(): number {
    return this.slotByKey.size;
  }

  get slotCount(): number {
    return this.slotKeys.length;
  }

  get liveRows(): number {
    return this.usedRows - this.deadRows;
  }

  get wastedRows(): number {
    return this.deadRows;
  }

  /** Centroid id of every row; a slot's rows start at `firstRow(slot)`. Replaced on growth. */
  get ids(): Uint16Array {
    return this.centroidIds;
  }

  /** Residual bytes of every row, `residualBytes` per row. Replaced on growth. */
  get residuals(): Uint8Array {
    return this.residualCodes;
  }

  /** Bytes holding live and dead rows (what search keeps in memory for the codes). */
  get bytes(): number {
    return this.usedRows * (2 + this.residualBytes);
  }

  has(key: string): boolean {
    return this.slotByKey.has(key);
  }

  isLive(slot: number): boolean {
    return this.slotKeys[slot] !== undefined;
  }

  keyOf(slot: number): string {
    const key = this.slotKeys[slot];
    if (key === undefined) throw new Error(`Slot ${slot} holds no page`);
    return key;
  }

  firstRow(slot: number): number {
    return this.slotFirstRow[slot]!;
  }

  rowCount(slot: number): number {
    return this.slotRowCount[slot]!;
  }

  /** Reserves `count` rows for a new page and returns its slot; the caller fills ids and residuals. */
  append(key: string, count: number): number {
    if (this.slotByKey.has(key)) throw new Error(`Page "${key}" is already stored`);
    this.ensureCapacity(this.usedRows + count);
    const slot = this.slotKeys.length;
    this.slotKeys.push(key);
    this.slotFirstRow.push(this.usedRows);
    this.slotRowCount.push(count);
    this.slotByKey.set(key, slot);
    this.usedRows += count;
    return slot;
  }

  remove(key: string): boolean {
    const slot = this.slotByKey.get(key);
    if (slot === undefined) return false;
    this.slotByKey.delete(key);
    this.slotKeys[slot] = undefined;
    this.deadRows += this.slotRowCount[slot]!;
    return true;
  }

  /** Moves live pages over the holes; returns each old slot's new slot, or -1 when it was dead. */
  compact(): Int32Array {
    const remap = new Int32Array(this.slotKeys.length).fill(-1);
    const keys: string[] = [];
    const firstRows: number[] = [];
    const rowCounts: number[] = [];
    const width = this.residualBytes;
    let writeRow = 0;
    for (let slot = 0; slot < this.slotKeys.length; slot++) {
      const key = this.slotKeys[slot];
      if (key === undefined) continue;
      const from = this.slotFirstRow[slot]!;
      const count = this.slotRowCount[slot]!;
      if (from !== writeRow) {
        this.centroidIds.copyWithin(writeRow, from, from + count);
        this.residualCodes.copyWithin(writeRow * width, from * width, (from + count) * width);
      }
      remap[slot] = keys.length;
      this.slotByKey.set(key, keys.length);
      keys.push(key);
      firstRows.push(writeRow);
      rowCounts.push(count);
      writeRow += count;
    }
    this.slotKeys = keys;
    this.slotFirstRow = firstRows;
    this.slotRowCount = rowCounts;
    this.usedRows = writeRow;
    this.deadRows = 0;
    return remap;
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.centroidIds.length) return;
    const capacity = Math.max(rows, Math.ceil(this.centroidIds.length * 1.5));
    const ids = new Uint16Array(capacity);
    ids.set(this.centroidIds.subarray(0, this.usedRows));
    const residuals = new Uint8Array(capacity * this.residualBytes);
    residuals.set(this.residualCodes.subarray(0, this.usedRows * this.residualBytes));
    this.centroidIds = ids;
    this.residualCodes = residuals;
  }
}
