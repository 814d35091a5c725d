/** A page drawn in the browser: its number in large type, so a test can tell pages apart. */
export function drawPage(page: number): string {
  const canvas = window.document.createElement('canvas');
  canvas.width = 300;
  canvas.height = 400;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('The harness page cannot draw on a canvas.');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, 300, 400);
  context.fillStyle = '#000';
  context.font = '48px sans-serif';
  context.fillText(String(page), 120, 220);
  return canvas.toDataURL('image/png');
}
