/*
 * Text measured without a font engine: widths from per-character estimates of a Helvetica-like face
 * (Arial and Liberation Sans share its metrics), so layout is the same in a worker thread, on the
 * page drawn by Chromium and in the text view. Estimates lean wide, so drawn lines fit their boxes.
 */

const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const NARROW = /[ijl.,:;'|!`\u00b7]/;
const THIN = /[ frtI()[\]{}\-"/\\]/;
const BROAD = /[mwMW@%]/;

/** Width of one character in ems. */
function charEm(char: string): number {
  if (WIDE.test(char)) return 1;
  if (NARROW.test(char)) return 0.28;
  if (THIN.test(char)) return 0.36;
  if (BROAD.test(char)) return 0.9;
  if (/[A-Z]/.test(char)) return 0.7;
  if (/[0-9]/.test(char)) return 0.58;
  return 0.56;
}

/** Estimated width of `text` in points at `fontSize` points (bold faces are about 6% wider). */
export function textWidth(text: string, fontSize: number, bold = false): number {
  let ems = 0;
  for (const char of text) ems += charEm(char);
  return ems * fontSize * (bold ? 1.06 : 1);
}

// A wide (CJK) character, a run of other non-space characters, or a run of spaces.
const TOKENS =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[^\s\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]+|\s+/gu;

/**
 * Breaks `text` into lines no wider than `width` points: at spaces, between wide characters, and
 * inside a word only when the word alone is wider than a line. Never returns an empty list.
 */
export function wrapText(text: string, width: number, fontSize: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  const push = () => {
    const trimmed = line.trimEnd();
    if (trimmed !== '') lines.push(trimmed);
    line = '';
    lineWidth = 0;
  };
  for (const token of text.match(TOKENS) ?? []) {
    if (/^\s+$/.test(token)) {
      if (line !== '') {
        line += ' ';
        lineWidth += textWidth(' ', fontSize, bold);
      }
      continue;
    }
    const tokenWidth = textWidth(token, fontSize, bold);
    if (lineWidth + tokenWidth <= width) {
      line += token;
      lineWidth += tokenWidth;
      continue;
    }
    if (line.trim() !== '') push();
    if (tokenWidth <= width) {
      line = token;
      lineWidth = tokenWidth;
      continue;
    }
    // A word longer than the line (a URL, a long number): cut it by characters.
    for (const char of token) {
      const charWidth = textWidth(char, fontSize, bold);
      if (lineWidth + charWidth > width && line !== '') push();
      line += char;
      lineWidth += charWidth;
    }
  }
  push();
  return lines.length > 0 ? lines : [''];
}
