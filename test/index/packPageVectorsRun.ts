// Runs the version 3 -> 4 page-vector migration on the index at argv[2]; the migration test kills it mid-way.
import { connect } from '@lancedb/lancedb';
import { MIGRATIONS } from '../../src/core/index/maintenance/migrations';

const db = await connect(process.argv[2]!);
await MIGRATIONS.find((step) => step.from === 3)!.run(db);
console.log('finished');
