import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/*
 * Small text PDFs written byte by byte (PDF 1.4, the standard Helvetica font, one text line per
 * sentence), for tests that run where the shared corpus is not, such as the packaged-app test in CI.
 * pdfjs reads their text and PDFium draws their pages like any other PDF.
 */

export interface SamplePdf {
  name: string;
  /** One entry per page: the sentences on it, top to bottom. */
  pages: string[][];
}

/** Three documents; the phrase "heliotrope calibration" appears on page 2 of the survey only. */
export const samplePdfs: SamplePdf[] = [
  {
    name: 'field survey.pdf',
    pages: [
      ['Field survey of the northern orchard', 'Soil samples were taken at twelve points.'],
      [
        'Instruments',
        'The heliotrope calibration was repeated every morning before readings.',
        'Readings drifted by less than two percent.',
      ],
      ['Results', 'Yields rose where the drainage was improved.'],
    ],
  },
  {
    name: 'maintenance manual.pdf',
    pages: [
      ['Maintenance manual', 'Check the pump seals every three months.'],
      ['Replacing the filter', 'Close both valves before opening the housing.'],
    ],
  },
  { name: 'letter.pdf', pages: [['Dear committee,', 'The orchard report is attached for your review.']] },
];

/** Escapes the characters PDF string literals reserve. */
function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** The bytes of a PDF holding `pages`, each sentence on its own line. */
export function samplePdfBytes(pages: string[][]): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_, index) => 4 + index * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  pages.forEach((lines, index) => {
    const stream = [
      'BT',
      '/F1 14 Tf',
      '72 720 Td',
      '20 TL',
      ...lines.map((line) => `${pdfString(line)} '`),
      'ET',
    ].join('\n');
    const pageId = pageIds[index]!;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> ` +
      `/Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] =
      `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });

  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefAt = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** Writes every sample PDF into `folder`; returns their paths. */
export async function writeSamplePdfs(folder: string): Promise<string[]> {
  const paths: string[] = [];
  for (const sample of samplePdfs) {
    const path = join(folder, sample.name);
    await writeFile(path, samplePdfBytes(sample.pages));
    paths.push(path);
  }
  return paths;
}
