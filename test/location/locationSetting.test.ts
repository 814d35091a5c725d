import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { locationSettingFile } from '../../src/core/location/locationSetting';
import { tempDir } from '../helpers/shared';

let core: Core | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await core?.dispose();
  await cleanup?.();
  core = undefined;
});

async function startCore(): Promise<{ core: Core; dir: string }> {
  const dir = await tempDir();
  cleanup = dir.cleanup;
  core = createCore({ dataDir: dir.path, ingest: false, findModels: false });
  await core.start();
  return { core, dir: dir.path };
}

const shared = {
  uri: 's3://team-bucket/quire',
  endpoint: 'https://storage.example.com',
  region: 'eu-central-1',
  profile: null,
  writer: false,
};

describe('the library location setting (Settings panel)', () => {
  it('saves a shared location for the next start, without keys, and goes back to the data folder', async () => {
    const { core, dir } = await startCore();
    const current = await core.dispatch('location.current', {});
    expect(current).toEqual({
      ok: true,
      value: { active: null, saved: null, chosenByCommandLine: false, restartNeeded: false },
    });

    const saved = await core.dispatch('location.save', { setting: shared });
    expect(saved).toEqual({
      ok: true,
      value: { active: null, saved: shared, chosenByCommandLine: false, restartNeeded: true },
    });
    const file = JSON.parse(await readFile(locationSettingFile(dir), 'utf8')) as Record<string, unknown>;
    expect(file).toEqual(shared);

    const back = await core.dispatch('location.save', { setting: null });
    expect(back.ok && back.value).toMatchObject({ saved: null, restartNeeded: false });
    await expect(readFile(locationSettingFile(dir))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a key, a location that is not S3 and plain http to a remote endpoint, and keeps what was saved', async () => {
    const { core, dir } = await startCore();
    await core.dispatch('location.save', { setting: shared });

    const withKey = await core.dispatch('location.save', {
      setting: { ...shared, secretAccessKey: 'do-not-store' },
    });
    expect(withKey).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(JSON.stringify(withKey)).not.toContain('do-not-store');

    const notS3 = await core.dispatch('location.save', { setting: { ...shared, uri: 'ftp://team/quire' } });
    expect(notS3).toMatchObject({ ok: false, error: { code: 'invalid_input', message: /s3:\/\/bucket/ } });

    const plainHttp = await core.dispatch('location.save', {
      setting: { ...shared, endpoint: 'http://10.0.0.5:9000' },
    });
    expect(plainHttp).toMatchObject({ ok: false, error: { code: 'invalid_input', message: /plain http/ } });

    expect(JSON.parse(await readFile(locationSettingFile(dir), 'utf8'))).toEqual(shared);
  });
});
