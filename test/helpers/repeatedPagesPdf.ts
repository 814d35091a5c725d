/*
 * A PDF whose page tree lists page objects over and over, written by hand: page A ("A page repeated")
 * is object 3 and page B ("Another page, once") object 6. `kids` says which of them each page is.
 */

const PAGE_TEXT = { A: 'A page repeated', B: 'Another page, once' } as const;

export function repeatedPagesPdf(kids: ReadonlyArray<'A' | 'B'>): Buffer {
  const stream = (text: string) => `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const page = (contents: number) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R ` +
    '/Resources << /Font << /F1 5 0 R >> >> >>';
  const streamObject = (text: string) =>
    `<< /Length ${stream(text).length} >>\nstream\n${stream(text)}\nendstream`;
  const refs = kids.map((kid) => (kid === 'A' ? '3 0 R' : '6 0 R')).join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${refs}] /Count ${kids.length} >>`,
    page(4),
    streamObject(PAGE_TEXT.A),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    page(7),
    streamObject(PAGE_TEXT.B),
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** `count` pages: B once as page 2, A everywhere else. */
export function mostlyRepeats(count: number): Array<'A' | 'B'> {
  return Array.from({ length: count }, (_, i) => (i === 1 ? 'B' : 'A'));
}
