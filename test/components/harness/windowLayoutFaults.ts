/**
 * The whole window's layout faults, measured in the page for the layout test: the page scrolling
 * sideways, a drawn element reaching past the window's left or right edge, and a scrolling box that
 * scrolls sideways (the page viewer's stage excepted: a zoomed page pans). What a box clips on
 * purpose (a path cut at its start, an ellipsis, a visually-hidden label) is not a fault.
 */
export function windowLayoutFaults(): string[] {
  const faults: string[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) {
    faults.push(`the window scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
  }
  const describe = (element: Element) =>
    `${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? '').slice(0, 40)}"`;
  for (const element of document.body.querySelectorAll('*')) {
    if (element.closest('.visually-hidden')) continue;
    const box = shownPart(element);
    if (!box) continue;
    if (box.right > root.clientWidth + 0.5 || box.left < -0.5) {
      faults.push(`${describe(element)} reaches outside the window (${box.left}-${box.right})`);
    }
    const overflowX = getComputedStyle(element).overflowX;
    if (
      (overflowX === 'auto' || overflowX === 'scroll') &&
      element.scrollWidth > element.clientWidth &&
      !element.classList.contains('page-viewer__stage')
    ) {
      faults.push(`${describe(element)} scrolls sideways: ${element.scrollWidth} > ${element.clientWidth}`);
    }
  }
  return faults;
}

/** The part of an element's box left after every ancestor that clips sideways; null if none is left. */
function shownPart(element: Element): { left: number; right: number } | null {
  const box = element.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return null;
  let { left, right } = box;
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    if (getComputedStyle(parent).overflowX === 'visible') continue;
    const clip = parent.getBoundingClientRect();
    left = Math.max(left, clip.left);
    right = Math.min(right, clip.right);
  }
  return right > left ? { left, right } : null;
}
