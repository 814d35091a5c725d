import sharp from 'sharp';

/** A page's picture: its number in large type on white, so pages can be told apart. */
export function pagePicture(page: number): Promise<Buffer> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400">' +
    '<rect width="300" height="400" fill="#fff"/>' +
    `<text x="120" y="220" font-size="48" font-family="sans-serif">${page}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
