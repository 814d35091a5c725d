/**
 * The library panel's layout faults, measured in the page for the layout test: anything that sticks
 * out sideways (the panel, a row, a control reaching past the panel's edge), and a folder's or
 * collection's count drawn over its name.
 */
export function libraryLayoutFaults(): string[] {
  const faults: string[] = [];
  const panel = document.querySelector('aside.sidebar');
  if (!panel) return ['no library panel'];
  const describe = (element: Element) =>
    `${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? '').slice(0, 40)}"`;
  if (panel.scrollWidth > panel.clientWidth) {
    faults.push(`the panel scrolls sideways: ${panel.scrollWidth} > ${panel.clientWidth}`);
  }
  const panelBox = panel.getBoundingClientRect();
  const rows = panel.querySelectorAll(
    '.folder-item, .folder-item__head, .document-item, .document-item__head, .document-item__meta, .collection-item, .collection-item__head, .collection-item__path',
  );
  for (const row of rows) {
    if (row.scrollWidth > row.clientWidth) {
      faults.push(`${describe(row)} overflows: ${row.scrollWidth} > ${row.clientWidth}`);
    }
  }
  // Every control and name stays inside the panel (a clipped "Remove" is cut off, even if hidden).
  for (const element of panel.querySelectorAll('button, select, input, .middle-name')) {
    const box = element.getBoundingClientRect();
    if (box.width > 0 && (box.right > panelBox.right + 0.5 || box.left < panelBox.left - 0.5)) {
      faults.push(`${describe(element)} reaches outside the panel (${box.left}-${box.right})`);
    }
  }
  type Box = { left: number; right: number; top: number; bottom: number };
  const overlap = (a: Box, b: Box) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  for (const [nameSelector, countSelector] of [
    ['.folder-item__name', '.folder-item__count'],
    ['.collection-item__name', '.collection-item__count'],
  ] as const) {
    for (const name of panel.querySelectorAll(nameSelector)) {
      const row = name.parentElement?.closest('.folder-item__head, .collection-item__head');
      const count = row?.querySelector(countSelector);
      if (!count) continue;
      const nameBox = name.getBoundingClientRect();
      if (nameBox.width < 1) faults.push(`${describe(name)} has no room`);
      if (overlap(nameBox, count.getBoundingClientRect())) {
        faults.push(`${describe(name)} overlaps its count`);
      }
    }
  }
  return faults;
}
