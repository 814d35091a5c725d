import type { PageWord } from '../../../../shared/domain/pages';

interface TextLayerProps {
  words: readonly PageWord[];
  pageWidth: number;
  pageHeight: number;
}

/**
 * The page's words laid over its image, invisible but selectable: a drag selects text and copying
 * gives the words in reading order. Sizes are shares of the page, so the layer follows every zoom.
 */
export function TextLayer({ words, pageWidth, pageHeight }: TextLayerProps) {
  return (
    <div className="text-layer" data-testid="text-layer">
      {words.map((word, index) => (
        <span
          key={index}
          className="text-layer__word"
          data-word=""
          style={{
            left: `${(word.box.x / pageWidth) * 100}%`,
            top: `${(word.box.y / pageHeight) * 100}%`,
            width: `${(word.box.width / pageWidth) * 100}%`,
            height: `${(word.box.height / pageHeight) * 100}%`,
            // Container units: the frame is the container, so the text scales with the page.
            fontSize: `${((word.box.height * 0.85) / pageWidth) * 100}cqw`,
          }}
        >
          {`${word.text} `}
        </span>
      ))}
    </div>
  );
}
