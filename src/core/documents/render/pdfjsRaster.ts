import { createCanvas } from './canvas';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { rasterSizes, type PageRasters, type RasterPage } from './raster';

type RenderParameters = Parameters<PDFPageProxy['render']>[0];

/**
 * Draws a page with pdfjs on a white background, so its long edge is `longEdge` pixels (or less for
 * tiny pages), and scales that drawing down for the thumbnail.
 */
export async function drawPageWithPdfjs(page: PDFPageProxy, longEdge: number): Promise<PageRasters> {
  const unscaled = page.getViewport({ scale: 1 });
  const sizes = rasterSizes(unscaled.width, unscaled.height, longEdge);
  const canvas = await drawOnCanvas(page, sizes.full);
  const thumbnail = createCanvas(sizes.thumbnail.width, sizes.thumbnail.height);
  const thumbnailContext = thumbnail.getContext('2d');
  thumbnailContext.imageSmoothingQuality = 'high';
  thumbnailContext.drawImage(canvas, 0, 0, sizes.thumbnail.width, sizes.thumbnail.height);
  return {
    full: {
      pixels: ownedCopy(canvas.data()),
      channels: 4,
      width: sizes.full.width,
      height: sizes.full.height,
    },
    thumbnail: {
      pixels: ownedCopy(thumbnail.data()),
      channels: 4,
      width: sizes.thumbnail.width,
      height: sizes.thumbnail.height,
    },
  };
}

/** Draws a page with pdfjs so its long edge is `longEdge` pixels, without a thumbnail. */
export async function drawFullPageWithPdfjs(page: PDFPageProxy, longEdge: number): Promise<RasterPage> {
  const unscaled = page.getViewport({ scale: 1 });
  const size = rasterSizes(unscaled.width, unscaled.height, longEdge).full;
  const canvas = await drawOnCanvas(page, size);
  return { pixels: ownedCopy(canvas.data()), channels: 4, width: size.width, height: size.height };
}

async function drawOnCanvas(page: PDFPageProxy, size: { scale: number; width: number; height: number }) {
  const viewport = page.getViewport({ scale: size.scale });
  const canvas = createCanvas(size.width, size.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size.width, size.height);
  // pdfjs types expect DOM canvases; @napi-rs/canvas implements the part it uses.
  await page.render({
    canvas: canvas as unknown as RenderParameters['canvas'],
    canvasContext: context as unknown as RenderParameters['canvasContext'],
    viewport,
    background: 'rgb(255,255,255)',
  }).promise;
  return canvas;
}

/**
 * `data()` is a view of the canvas's own memory, which goes when the canvas is collected; the
 * pixels are encoded on other threads while the next page draws, so they get their own copy.
 */
function ownedCopy(view: Uint8Array): Uint8Array {
  return new Uint8Array(view);
}
