/**
 * What a merchant installs: types that match the API the gateway serves today,
 * and one package that loads both with import and with require.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('../../../', import.meta.url));

describe('@gateway/sdk package', () => {
  it('when the generated types are compared with the OpenAPI document the gateway serves, then they are current (else run npm run gen:sdk)', async () => {
    // --check exits 1 when src/generated/openapi.ts differs from what buildOpenApi gives now.
    await run(process.execPath, ['scripts/generate-types.mjs', '--check'], { cwd: packageDir });
  });

  it('when loaded with require and with import, then both give the client, its errors and the webhook verifier', async () => {
    const probe = (loader: string) => `${loader}.then((sdk) => console.log([typeof sdk.Gateway, typeof sdk.ValidationError, typeof new sdk.Gateway('sk_test_x').webhooks.constructEvent, Object.keys(sdk.operations).includes('createSession')].join(',')))`;
    const cjs = await run(process.execPath, ['--input-type=commonjs', '-e', probe("Promise.resolve(require('@gateway/sdk'))")], { cwd: packageDir });
    const esm = await run(process.execPath, ['--input-type=module', '-e', probe("import('@gateway/sdk')")], { cwd: packageDir });
    assert.equal(cjs.stdout.trim(), 'function,function,function,true');
    assert.equal(esm.stdout.trim(), 'function,function,function,true');
  });

  it('when a require() consumer loads it, then it runs the CommonJS build, not the ES module one', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=commonjs', '-e', "console.log(require.resolve('@gateway/sdk'))"], { cwd: packageDir });
    assert.match(stdout.trim(), /dist\/cjs\/index\.js$/);
  });
});
