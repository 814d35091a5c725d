import { LINE_STYLES, CELL_PADDING_X, CELL_PADDING_Y } from '../../../../shared/domain/pageLayout';
import type { PageText, PageTextLine } from '../../../../shared/domain/pages';
import type { BoundingBox } from '../../../../shared/domain/search';

/*
 * A laid-out page (a slide, a sheet, a stretch of a Word file) drawn as SVG from the same boxes its
 * image is drawn from: text stays selectable, and cited boxes highlight the same words they would on
 * the image. Each line is held to its box's width, so a wider font never pushes text out of place.
 */

const FONT = 'Helvetica, Arial, "Liberation Sans", sans-serif';

export function TextPage({ page, highlights }: { page: PageText; highlights: readonly BoundingBox[] }) {
  return (
    <svg
      className="text-page"
      data-testid="page-text"
      viewBox={`0 0 ${page.pageWidth} ${page.pageHeight}`}
      role="document"
      aria-label={`Page ${page.page}, as text`}
    >
      <rect width={page.pageWidth} height={page.pageHeight} fill="#fff" />
      {page.lines.map((line, index) => (
        <Line key={index} line={line} />
      ))}
      {highlights.map((box, index) => (
        <rect
          key={`h${index}`}
          className="text-page__highlight"
          data-testid="page-highlight"
          x={box.x}
          y={box.y}
          width={box.width}
          height={box.height}
        />
      ))}
    </svg>
  );
}

function Line({ line }: { line: PageTextLine }) {
  const metrics = LINE_STYLES[line.style];
  const { x, y, width, height } = line.box;
  const font = {
    fontFamily: FONT,
    fontSize: metrics.size,
    fontWeight: metrics.bold ? 700 : 400,
    fontStyle: metrics.italic ? 'italic' : 'normal',
  } as const;
  const className = `text-page__line text-page__line--${line.style}`;
  if (line.cells) {
    return (
      <g className={className}>
        {line.style === 'tableHeader' && (
          <rect x={x} y={y} width={width} height={height} className="text-page__header" />
        )}
        {line.cells.map((cell, at) => (
          <g key={at}>
            <rect x={x + cell.x} y={y} width={cell.width} height={height} className="text-page__cell" />
            {cell.lines.map((text, row) => (
              <FittedText
                key={row}
                text={text}
                x={x + cell.x + CELL_PADDING_X}
                y={baseline(y + CELL_PADDING_Y + row * metrics.lineHeight, metrics.lineHeight, metrics.size)}
                width={cell.width - 2 * CELL_PADDING_X}
                font={font}
              />
            ))}
          </g>
        ))}
      </g>
    );
  }
  return (
    <g className={className}>
      {line.marker && (
        <text x={x - 5} y={baseline(y, height, metrics.size)} textAnchor="end" {...font}>
          {line.marker}
        </text>
      )}
      <FittedText
        text={line.text}
        x={x}
        y={baseline(y, height, Math.min(metrics.size, height))}
        width={width}
        font={font}
      />
    </g>
  );
}

function baseline(top: number, rowHeight: number, size: number): number {
  return top + (rowHeight - size) / 2 + size * 0.8;
}

/** Text no wider than its box: squeezed to fit by SVG's textLength only when it would overflow. */
function FittedText(props: {
  text: string;
  x: number;
  y: number;
  width: number;
  font: Record<string, string | number>;
}) {
  const estimate = props.text.length * Number(props.font.fontSize) * 0.56;
  const squeeze =
    estimate > props.width ? { textLength: props.width, lengthAdjust: 'spacingAndGlyphs' as const } : {};
  return (
    <text x={props.x} y={props.y} {...props.font} {...squeeze}>
      {props.text}
    </text>
  );
}
