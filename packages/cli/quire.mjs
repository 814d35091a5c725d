#!/usr/bin/env node
// Runs the CLI from its TypeScript source through tsx, so `npx quire` needs no build step.
import { register } from 'tsx/esm/api';

register();
// LanceDB reads its log level once, when it loads: a shared library's s3+ddb:// opens each log a
// warning the user can do nothing about, so those are quiet unless LANCEDB_LOG asks otherwise.
if (process.argv.includes('--library')) process.env.LANCEDB_LOG ??= 'error';
await import('../../src/core/cli.ts');
