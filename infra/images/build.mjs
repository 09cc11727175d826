#!/usr/bin/env node
// `make images` (`npm run images`): builds every image of infra/docker/service.Dockerfile
// with podman on a machine without a Docker engine or a registry, then starts them
// (infra/images/smoke.mjs) and makes one payment through them.
//
//   node infra/images/build.mjs [--no-smoke] [--only SERVICE[,SERVICE]]
//
//   1. podman, runc and debootstrap: installed from Debian's packages when missing;
//   2. .local/images/containers.conf for this host (infra/images/podman.mjs says why);
//   3. the Dockerfile's base images, made with debootstrap when missing (base-image.mjs);
//   4. payment-gateway/<service>:dev for every service of packages/system's description and payment-gateway/migrate:dev,
//      the names docker-compose.yml gives them (--format docker keeps the HEALTHCHECK;
//      --network host lets npm reach its registry);
//   5. each image's size and build time, printed and written to .local/images/report.json;
//   6. the smoke run, unless --no-smoke.
// Exits non-zero on any failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBaseImages } from './base-image.mjs';
import { ensureTools, podman, podmanOrThrow, root, workDir, writeContainersConf } from './podman.mjs';

/** Every image: the Dockerfile's SERVICE and PORT, as docker-compose.yml builds them (the services of packages/system's description, built by `make images` first). */
const { SERVICES } = await import('@gateway/system');
export const IMAGES = [{ service: 'migrate' }, ...SERVICES.map(({ name, port }) => ({ service: name, port }))];

/** The tag of a service's image (docker-compose.yml's `image:`). */
export function imageName(service) {
  return `localhost/payment-gateway/${service}:dev`;
}

/**
 * This machine's npm cache, lent to the build's RUN steps (podman build --volume): npm ci
 * in the image then fetches only what the host has not. It stays out of every layer, and
 * the Dockerfile needs nothing for it.
 */
function npmCacheVolume() {
  const cache = path.join(os.homedir(), '.npm');
  fs.mkdirSync(cache, { recursive: true });
  return ['--volume', `${cache}:/root/.npm`];
}

function log(line) {
  console.log(`images: ${line}`);
}

async function main() {
  const args = process.argv.slice(2);
  const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : undefined;
  const started = Date.now();

  ensureTools(log);
  writeContainersConf();

  let at = Date.now();
  const bases = ensureBaseImages({ log });
  const baseSeconds = (Date.now() - at) / 1000;
  log(`base images: ${Object.entries(bases).map(([image, how]) => `${image} ${how}`).join(', ')} (${baseSeconds.toFixed(1)} s)`);

  const built = [];
  for (const { service, port } of IMAGES.filter((image) => !only || only.has(image.service))) {
    at = Date.now();
    const buildArgs = ['--build-arg', `SERVICE=${service}`, ...(port ? ['--build-arg', `PORT=${port}`] : [])];
    log(`building ${imageName(service)}`);
    const result = podman(
      ['build', '--format', 'docker', '--network', 'host', '--pull=never', '--layers', ...npmCacheVolume(), '-f', path.join(root, 'infra', 'docker', 'service.Dockerfile'), ...buildArgs, '-t', imageName(service), root],
      { inherit: process.env.IMAGES_VERBOSE === '1' },
    );
    if (result.status !== 0) {
      console.error(result.stdout.slice(-6000));
      console.error(result.stderr.slice(-6000));
      throw new Error(`building ${imageName(service)} failed (exit ${result.status})`);
    }
    const seconds = (Date.now() - at) / 1000;
    const size = Number(podmanOrThrow(['image', 'inspect', '--format', '{{.Size}}', imageName(service)]).trim());
    built.push({ service, image: imageName(service), seconds: Number(seconds.toFixed(1)), bytes: size, megabytes: Number((size / 1e6).toFixed(1)) });
    log(`${imageName(service)}: ${(size / 1e6).toFixed(1)} MB, built in ${seconds.toFixed(1)} s`);
  }
  const report = {
    at: new Date().toISOString(),
    node: process.version,
    podman: podman(['--version']).stdout.trim(),
    base_images: bases,
    base_seconds: Number(baseSeconds.toFixed(1)),
    images: built,
    total_seconds: Number(((Date.now() - started) / 1000).toFixed(1)),
  };
  fs.writeFileSync(path.join(workDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.table(built.map(({ image, megabytes, seconds }) => ({ image, MB: megabytes, seconds })));
  log(`built ${built.length} images in ${report.total_seconds} s (report: .local/images/report.json)`);

  if (!args.includes('--no-smoke')) {
    const { smoke } = await import('./smoke.mjs');
    await smoke({ log });
  }
}

main().catch((err) => {
  console.error(`images: ${err.message}`);
  process.exit(1);
});
