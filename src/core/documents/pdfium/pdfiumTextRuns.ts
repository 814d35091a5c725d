import { QuireError } from '../../../shared/errors';
import { ASCENT, clipToPage, DESCENT, type PageRuns, type TextRun } from '../pdf/textRuns';
import type { Pdfium } from './loadPdfium';

// A character joins the run before it while it sits on the run's baseline (within this many font
// sizes) and starts no further than this past the run's end: a wider gap is left for line grouping to
// read as a space or a table cell.
const BASELINE_EMS = 0.3;
const JOIN_GAP_EMS = 0.6;
// Past a space the gap includes the space itself, and justified lines stretch it.
const SPACED_GAP_EMS = 1.0;
// Kerning and overprinting move a character back a little; more than this starts a new run.
const BACKSTEP_EMS = 0.5;
// Vertical writing: the next character starts under the last, by about a font size.
const VERTICAL_MIN_STEP_EMS = 0.5;
const VERTICAL_STEP_EMS = 1.6;
// Device pixels per point when PDFium maps page space to the page as shown (it answers in integers).
const MAP_SCALE = 64;
const MAP_SPAN = 1000;

// PDFium marks a hyphen that ends a line with this code; it is the hyphen the page shows.
const SOFT_HYPHEN_MARK = 0x02;
const HYPHEN = 0x2d;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** The affine map from PDF page space to the page as shown: points, origin top-left, y down. */
interface Affine {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

/**
 * The per-character calls, taken straight from the WebAssembly exports: the package's wrappers
 * convert and check every argument, which cost a quarter of reading a page's text.
 */
interface CharacterCalls {
  FPDFText_GetUnicode(textPage: number, index: number): number;
  FPDFText_GetTextObject(textPage: number, index: number): number;
  FPDFText_GetCharBox(
    textPage: number,
    index: number,
    l: number,
    r: number,
    b: number,
    t: number,
  ): number | boolean;
  FPDFText_GetCharOrigin(textPage: number, index: number, x: number, y: number): number | boolean;
  FPDFText_GetFontSize(textPage: number, index: number): number;
  FPDFText_GetMatrix(textPage: number, index: number, matrix: number): number | boolean;
}

function characterCalls(pdfium: Pdfium): CharacterCalls {
  const exports = pdfium.runtime.wasmExports as unknown as Partial<CharacterCalls>;
  const names: Array<keyof CharacterCalls> = [
    'FPDFText_GetUnicode',
    'FPDFText_GetTextObject',
    'FPDFText_GetCharBox',
    'FPDFText_GetCharOrigin',
    'FPDFText_GetFontSize',
    'FPDFText_GetMatrix',
  ];
  // A build without them is used through its wrappers.
  return names.every((name) => typeof exports[name] === 'function') ? (exports as CharacterCalls) : pdfium;
}

interface Glyph {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Where the character starts on its baseline, on the page as shown. */
  originX: number;
  originY: number;
  fontSize: number;
  /** The text runs left to right on the page as shown (most text); else it is turned or vertical. */
  upright: boolean;
  rtl: boolean;
}

interface OpenRun {
  glyphs: Glyph[];
  text: string;
  vertical: boolean;
}

/**
 * Reads a loaded PDFium page's characters and gathers them into runs placed in page space, the form
 * line grouping takes (see textRuns.ts). PDFium's own line breaks end a run; a space it inferred from
 * a gap is kept as a space. It reads a page about twice as fast as pdfjs, in bounded memory.
 */
export function readPdfiumPageRuns(pdfium: Pdfium, page: number): PageRuns {
  const width = pdfium.FPDF_GetPageWidthF(page);
  const height = pdfium.FPDF_GetPageHeightF(page);
  const textPage = pdfium.FPDFText_LoadPage(page);
  if (textPage === 0) throw new QuireError('unsupported', 'PDFium cannot read the text of this page.');
  const { runtime } = pdfium;
  const scratch = runtime.wasmExports.malloc(48);
  try {
    const shown = pageToShown(pdfium, page, width, height, scratch);
    const calls = characterCalls(pdfium);
    const glyphAt = glyphReader(pdfium, calls, textPage, shown, scratch);
    const runs: TextRun[] = [];
    let open: OpenRun | null = null;
    let spaceBefore = false;
    const close = () => {
      if (open) runs.push(finishRun(open, width, height));
      open = null;
      spaceBefore = false;
    };
    const count = pdfium.FPDFText_CountChars(textPage);
    for (let index = 0; index < count; index++) {
      let code = calls.FPDFText_GetUnicode(textPage, index);
      if (code === LINE_FEED || code === CARRIAGE_RETURN) {
        close();
        continue;
      }
      if (code === SOFT_HYPHEN_MARK) code = HYPHEN;
      if (code === 0 || isSpace(code)) {
        spaceBefore = open !== null;
        continue;
      }
      const glyph = glyphAt(index, code);
      if (!glyph) continue;
      const current: OpenRun | null = open;
      if (current && continues(current, glyph, spaceBefore)) {
        if (current.glyphs.length === 1 && isBelow(current, glyph)) current.vertical = true;
        current.text += (spaceBefore && !current.vertical ? ' ' : '') + glyph.text;
        current.glyphs.push(glyph);
        spaceBefore = false;
        continue;
      }
      close();
      open = { glyphs: [glyph], text: glyph.text, vertical: false };
    }
    close();
    return { width, height, runs };
  } finally {
    runtime.wasmExports.free(scratch);
    pdfium.FPDFText_ClosePage(textPage);
  }
}

function isSpace(code: number): boolean {
  return (
    code === 0x20 || code === 0x09 || code === 0xa0 || (code >= 0x2000 && code <= 0x200b) || code === 0x3000
  );
}

/** Measures the map from page space to the page as shown, with the page's rotation and crop. */
function pageToShown(pdfium: Pdfium, page: number, width: number, height: number, scratch: number): Affine {
  const deviceWidth = Math.max(1, Math.round(width * MAP_SCALE));
  const deviceHeight = Math.max(1, Math.round(height * MAP_SCALE));
  const map = (x: number, y: number): [number, number] => {
    pdfium.FPDF_PageToDevice(page, 0, 0, deviceWidth, deviceHeight, 0, x, y, scratch, scratch + 4);
    const view = new DataView(pdfium.runtime.HEAPU8.buffer, scratch, 8);
    return [view.getInt32(0, true) / MAP_SCALE, view.getInt32(4, true) / MAP_SCALE];
  };
  const [e, f] = map(0, 0);
  const [ax, ay] = map(MAP_SPAN, 0);
  const [cx, cy] = map(0, MAP_SPAN);
  return {
    a: (ax - e) / MAP_SPAN,
    b: (ay - f) / MAP_SPAN,
    c: (cx - e) / MAP_SPAN,
    d: (cy - f) / MAP_SPAN,
    e,
    f,
  };
}

/** Reads one character's box, origin and size; the text object's matrix is read once per object. */
function glyphReader(
  pdfium: Pdfium,
  calls: CharacterCalls,
  textPage: number,
  shown: Affine,
  scratch: number,
) {
  let lastObject = -1;
  let scale = { fontScale: 1, upright: true };
  let doubles = new Float64Array(pdfium.runtime.HEAPU8.buffer, scratch, 6);
  return (index: number, code: number): Glyph | null => {
    const object = calls.FPDFText_GetTextObject(textPage, index);
    if (object !== lastObject) {
      lastObject = object;
      scale = objectScale(pdfium, calls, textPage, index, shown, scratch);
    }
    if (!calls.FPDFText_GetCharBox(textPage, index, scratch, scratch + 8, scratch + 16, scratch + 24))
      return null;
    if (!calls.FPDFText_GetCharOrigin(textPage, index, scratch + 32, scratch + 40)) return null;
    // PDFium's memory may have grown (and moved) since the last character.
    if (doubles.buffer !== pdfium.runtime.HEAPU8.buffer) {
      doubles = new Float64Array(pdfium.runtime.HEAPU8.buffer, scratch, 6);
    }
    const [left = 0, right = 0, bottom = 0, top = 0, x = 0, y = 0] = doubles;
    // The box's corners as shown; min and max of each axis over the four.
    const { a, b, c, d, e, f } = shown;
    const x0 = a * left + e;
    const x1 = a * right + e;
    const y0 = b * left + f;
    const y1 = b * right + f;
    const cb = c * bottom;
    const ct = c * top;
    const db = d * bottom;
    const dt = d * top;
    const fontSize = calls.FPDFText_GetFontSize(textPage, index) * scale.fontScale;
    const glyphTop = Math.min(y0 + db, y0 + dt, y1 + db, y1 + dt);
    const glyphBottom = Math.max(y0 + db, y0 + dt, y1 + db, y1 + dt);
    return {
      text: String.fromCodePoint(code),
      left: Math.min(x0 + cb, x0 + ct, x1 + cb, x1 + ct),
      right: Math.max(x0 + cb, x0 + ct, x1 + cb, x1 + ct),
      top: glyphTop,
      bottom: glyphBottom,
      originX: a * x + c * y + e,
      originY: b * x + d * y + f,
      fontSize: fontSize || glyphBottom - glyphTop,
      upright: scale.upright,
      rtl: isRightToLeft(code),
    };
  };
}

/** Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms. */
function isRightToLeft(code: number): boolean {
  return (
    (code >= 0x0590 && code <= 0x08ff) ||
    (code >= 0xfb1d && code <= 0xfdff) ||
    (code >= 0xfe70 && code <= 0xfefc)
  );
}

/** How much a character's text matrix scales its font, and whether it writes left to right as shown. */
function objectScale(
  pdfium: Pdfium,
  calls: CharacterCalls,
  textPage: number,
  index: number,
  shown: Affine,
  scratch: number,
) {
  if (!calls.FPDFText_GetMatrix(textPage, index, scratch)) return { fontScale: 1, upright: true };
  const [a = 1, b = 0, c = 0, d = 1] = new Float32Array(pdfium.runtime.HEAPU8.buffer, scratch, 4);
  const alongX = shown.a * a + shown.c * b;
  const alongY = shown.b * a + shown.d * b;
  return {
    fontScale: Math.hypot(c, d) || Math.hypot(a, b) || 1,
    upright: alongX > 0 && Math.abs(alongY) <= Math.abs(alongX),
  };
}

/** Whether `glyph` carries on the open run: same baseline and size, and no wide gap before it. */
function continues(run: OpenRun, glyph: Glyph, spaceBefore: boolean): boolean {
  const last = run.glyphs[run.glyphs.length - 1]!;
  const em = Math.max(last.fontSize, glyph.fontSize);
  if (Math.abs(last.fontSize - glyph.fontSize) > 0.2 * em) return false;
  if (run.vertical || (run.glyphs.length === 1 && isBelow(run, glyph))) return isBelow(run, glyph);
  if (!last.upright || !glyph.upright) return false;
  if (Math.abs(last.originY - glyph.originY) > BASELINE_EMS * em) return false;
  const gap = glyph.rtl && last.rtl ? last.left - glyph.right : glyph.left - last.right;
  return gap <= (spaceBefore ? SPACED_GAP_EMS : JOIN_GAP_EMS) * em && gap >= -BACKSTEP_EMS * em;
}

/** Whether `glyph` stands right under the run's last character, as in vertical writing. */
function isBelow(run: OpenRun, glyph: Glyph): boolean {
  const last = run.glyphs[run.glyphs.length - 1]!;
  const em = Math.max(last.fontSize, glyph.fontSize);
  const step = glyph.originY - last.originY;
  return (
    Math.abs(glyph.originX - last.originX) < BASELINE_EMS * em &&
    step > VERTICAL_MIN_STEP_EMS * em &&
    step < VERTICAL_STEP_EMS * em
  );
}

function finishRun(run: OpenRun, pageWidth: number, pageHeight: number): TextRun {
  const { glyphs } = run;
  const first = glyphs[0]!;
  const left = Math.min(...glyphs.map((g) => g.left));
  const right = Math.max(...glyphs.map((g) => g.right));
  const fontSize = glyphs.reduce((sum, g) => sum + g.fontSize, 0) / glyphs.length;
  const rtlLetters = glyphs.filter((g) => g.rtl).length;
  // Upright runs get the box pdfjs-read runs have: the font's extent around the baseline, not the ink.
  const box =
    first.upright && !run.vertical
      ? {
          x: left,
          y: first.originY - ASCENT * fontSize,
          width: right - left,
          height: (ASCENT + DESCENT) * fontSize,
        }
      : {
          x: left,
          y: Math.min(...glyphs.map((g) => g.top)),
          width: right - left,
          height: Math.max(...glyphs.map((g) => g.bottom)) - Math.min(...glyphs.map((g) => g.top)),
        };
  return {
    // NFKC folds Arabic presentation forms and ligatures (fi, ffl) into the letters people search for.
    text: run.text.normalize('NFKC'),
    ...clipToPage(box, pageWidth, pageHeight),
    baseline: first.originY,
    fontSize,
    rtl: rtlLetters * 2 > glyphs.length,
    vertical: run.vertical,
  };
}
