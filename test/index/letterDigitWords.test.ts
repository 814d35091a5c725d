import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Index } from '../../src/core/index/openIndex';
import { ftsQuery } from '../../src/core/index/searchText';
import { tempDir } from '../helpers/shared';
import { documentRow, parsedFromPages, sha256 } from './helpers';

const PUMP = 'The Zephyr-9 pump was serviced in FY2022; spare part SKU0042 meets ISO9001.';
const OTHER = 'The fiscal year report lists parts, pumps and audits for 2021 and part numbers.';

describe('words of letters then digits, on LanceDB on disk', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let store: Index;

  beforeAll(async () => {
    dir = await tempDir('quire-letter-digit-');
    store = await Index.open({ uri: dir.path });
    const pump = sha256('pump');
    const other = sha256('other');
    await store.content.put(pump, parsedFromPages([PUMP]), [], { fileName: 'pump.txt' });
    await store.documents.upsert(documentRow('pump', pump));
    await store.content.put(other, parsedFromPages([OTHER]), [], { fileName: 'other.txt' });
    await store.documents.upsert(documentRow('other', other));
  });

  afterAll(async () => {
    await store.dispose();
    await dir.cleanup();
  });

  it('asks for the whole word and its parts', () => {
    expect(ftsQuery('serviced in FY2022?')).toBe('serviced FY 2022 FY2022');
    expect(ftsQuery('3M 10K')).toBe('3M 10K');
  });

  it.each(['FY2022', 'SKU0042', 'ISO9001', 'fy2022', 'FY 2022', '2022', 'SKU', '0042'])(
    'finds the file holding FY2022 and SKU0042 by %s',
    async (query) => {
      const hits = await store.search.chunks(query, { k: 5, mode: 'bm25' });
      expect(hits[0]?.documentId).toBe('pump');
      const documents = await store.search.documents(query);
      expect(documents.map((match) => match.documentId)).toContain('pump');
    },
  );
});
