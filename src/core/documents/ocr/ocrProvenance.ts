import type { OcrReason, PageOcr, PageTextSource } from '../types';
import type { OcrPageRecord } from './ocrStore';

/** What OCR made of a page, as the page keeps it: why it ran, which engine, how sure, how many words. */
export function pageOcrOf(record: OcrPageRecord, reason: OcrReason, words: number): PageOcr {
  return {
    reason,
    engine: record.engine,
    languages: record.languages,
    confidence: record.confidence,
    words,
    problem: record.problem,
    ...(record.transcription ? { transcribedBy: record.transcription.model } : {}),
    ...(record.turnGuessed ? { orientationGuessed: true } : {}),
  };
}

/** The text source of a page whose text OCR (or a vision model's transcription) gave. */
export function recognizedTextSource(ocr: PageOcr): PageTextSource {
  return {
    method: 'ocr',
    engine: ocr.transcribedBy ?? ocr.engine,
    languages: ocr.languages,
    ...(ocr.confidence === null ? {} : { confidence: ocr.confidence }),
    ocr,
  };
}
