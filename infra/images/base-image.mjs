// The base images infra/docker/service.Dockerfile names, made on this machine when no
// registry is reachable for them: debootstrap (minbase) of Debian bookworm, tagged as
//   debian:bookworm-slim        the runtime base (RUNTIME_IMAGE): Debian, no Node
//   node:20.20-bookworm-slim    the build base (NODE_IMAGE): the same plus this machine's own
//                               Node 20 and npm, laid out as the official image lays them out
//                               (/usr/local/bin/node, /usr/local/lib/node_modules/npm) with
//                               the `node` user (uid/gid 1000)
// and imported with `podman import`. Each is reused while present in podman's storage (the
// node one while its Node is this machine's version); the root filesystem tarballs are kept
// in .local/images/ and imported again when only they are.
//
// Plain Node ESM, built-in modules only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { imageExists, podmanOrThrow, root, runOrThrow, workDir } from './podman.mjs';

const MIRROR = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
const SUITE = 'bookworm';
/** This machine's CA bundle (Debian's ca-certificates), copied into the node image. */
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** The FROM images of the Dockerfile: the default values of its NODE_IMAGE and RUNTIME_IMAGE arguments. */
export function dockerfileBases(dockerfile = path.join(root, 'infra', 'docker', 'service.Dockerfile')) {
  const text = fs.readFileSync(dockerfile, 'utf8');
  const arg = (name) => new RegExp(`^ARG ${name}=(\\S+)`, 'm').exec(text)?.[1];
  const node = arg('NODE_IMAGE');
  const runtime = arg('RUNTIME_IMAGE');
  if (!node || !runtime) throw new Error(`${dockerfile} has no ARG NODE_IMAGE=... or ARG RUNTIME_IMAGE=...`);
  return { node: qualified(node), runtime: qualified(runtime) };
}

/** `node:20` → `docker.io/library/node:20`: the name podman resolves a Docker Hub short name to. */
function qualified(image) {
  const [first, ...rest] = image.split('/');
  if (rest.length > 0 && (first.includes('.') || first.includes(':') || first === 'localhost')) return image;
  return `docker.io/${rest.length > 0 ? image : `library/${image}`}`;
}

/** This machine's Node: the binary, npm's folder, and the version. */
function hostNode() {
  const binary = fs.realpathSync(process.execPath);
  const npmCli = fs.realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  // .../lib/node_modules/npm/bin/npm-cli.js → .../lib/node_modules/npm
  const npmDir = path.resolve(path.dirname(npmCli), '..');
  if (!fs.existsSync(path.join(npmDir, 'package.json'))) throw new Error(`npm's folder not found next to ${npmCli}`);
  return { binary, npmDir, version: process.version.slice(1) };
}

/**
 * Makes both base images when missing; answers what it did, per image:
 * 'present', 'imported' (from the cached tarball) or 'built'.
 */
export function ensureBaseImages({ log = console.log } = {}) {
  const bases = dockerfileBases();
  const done = {};
  const want = [
    { image: bases.runtime, tarball: path.join(workDir, `${SUITE}-slim.tar`), withNode: false },
    { image: bases.node, tarball: path.join(workDir, `${SUITE}-node-${process.version.slice(1)}.tar`), withNode: true },
  ];
  for (const { image, tarball, withNode } of want) {
    if (imageExists(image) && (!withNode || imageNodeVersion(image) === process.version.slice(1))) {
      done[image] = 'present';
      continue;
    }
    if (!fs.existsSync(tarball)) {
      makeRootfsTarball(tarball, withNode, log);
      done[image] = 'built';
    } else done[image] = 'imported';
    log(`podman import ${path.relative(root, tarball)} ${image}`);
    const changes = ['ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', ...(withNode ? nodeChanges() : ['CMD ["bash"]'])];
    podmanOrThrow(['import', ...changes.flatMap((change) => ['--change', change]), '--message', 'debootstrap minbase (infra/images/base-image.mjs)', tarball, image]);
  }
  return done;
}

/**
 * The node image's configuration. Where this machine reaches the npm registry through a
 * TLS-inspecting proxy, its CA is in the bundle copied into the image and not among Node's
 * own CAs, so npm in the image is pointed at the bundle, as on the host.
 */
function nodeChanges() {
  const changes = [`ENV NODE_VERSION=${process.version.slice(1)}`, 'CMD ["node"]'];
  if (fs.existsSync(CA_BUNDLE)) changes.push(`ENV NODE_EXTRA_CA_CERTS=${CA_BUNDLE}`);
  return changes;
}

/** The NODE_VERSION an image declares (ours declare this machine's at import; the official ones theirs). */
function imageNodeVersion(image) {
  const env = podmanOrThrow(['image', 'inspect', '--format', '{{range .Config.Env}}{{println .}}{{end}}', image]);
  return /^NODE_VERSION=(.*)$/m.exec(env)?.[1];
}

/** The debootstrapped tree, made once and shared by both tarballs. */
function debootstrapped(log) {
  const rootfs = path.join(workDir, `${SUITE}-rootfs`);
  const marker = path.join(rootfs, '.debootstrap-complete');
  if (fs.existsSync(marker)) return rootfs;
  // debootstrap removes its own /debootstrap folder when it succeeds: a tree with it is unfinished.
  if (!fs.existsSync(path.join(rootfs, 'etc', 'debian_version')) || fs.existsSync(path.join(rootfs, 'debootstrap'))) {
    fs.rmSync(rootfs, { recursive: true, force: true });
    fs.mkdirSync(workDir, { recursive: true });
    log(`debootstrap --variant=minbase ${SUITE} (${MIRROR})`);
    runOrThrow('debootstrap', ['--variant=minbase', SUITE, rootfs, MIRROR]);
  }
  // What a container never needs: package lists and archives, documentation, manuals.
  for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists', 'usr/share/doc', 'usr/share/man', 'usr/share/info', 'usr/share/locale', 'var/log']) {
    for (const entry of fs.readdirSync(path.join(rootfs, dir), { withFileTypes: true })) {
      if (entry.isFile() && entry.name === 'lock') continue;
      if (entry.name === 'partial') continue;
      fs.rmSync(path.join(rootfs, dir, entry.name), { recursive: true, force: true });
    }
  }
  // apt works in the image once `apt-get update` has run, as in the official slim image.
  fs.writeFileSync(path.join(rootfs, 'etc', 'apt', 'sources.list'), `deb ${MIRROR} ${SUITE} main\n`);
  fs.writeFileSync(marker, '');
  return rootfs;
}

function makeRootfsTarball(tarball, withNode, log) {
  const rootfs = debootstrapped(log);
  const exclude = ['--exclude=./.debootstrap-complete', '--exclude=./proc/*', '--exclude=./sys/*', '--exclude=./dev/*'];
  if (!withNode) {
    runOrThrow('tar', ['--numeric-owner', ...exclude, '-C', rootfs, '-cf', `${tarball}.tmp`, '.']);
    fs.renameSync(`${tarball}.tmp`, tarball);
    return;
  }
  // The Node layer goes into a copy, so that the runtime base stays without it.
  const node = hostNode();
  log(`adding this machine's Node ${node.version} (${node.binary}) and npm (${node.npmDir}), the CA bundle and user node (1000)`);
  const withNodeDir = `${rootfs}-node`;
  fs.rmSync(withNodeDir, { recursive: true, force: true });
  runOrThrow('cp', ['-a', rootfs, withNodeDir]);
  const usrLocal = path.join(withNodeDir, 'usr', 'local');
  fs.mkdirSync(path.join(usrLocal, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(usrLocal, 'lib', 'node_modules'), { recursive: true });
  fs.copyFileSync(node.binary, path.join(usrLocal, 'bin', 'node'));
  fs.chmodSync(path.join(usrLocal, 'bin', 'node'), 0o755);
  runOrThrow('cp', ['-a', node.npmDir, path.join(usrLocal, 'lib', 'node_modules', 'npm')]);
  fs.symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(usrLocal, 'bin', 'npm'));
  fs.symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(usrLocal, 'bin', 'npx'));
  // npm fetches over TLS with Node's own CAs; the bundle serves anything else in the image.
  if (fs.existsSync(CA_BUNDLE)) {
    fs.mkdirSync(path.join(withNodeDir, 'etc', 'ssl', 'certs'), { recursive: true });
    fs.copyFileSync(CA_BUNDLE, path.join(withNodeDir, CA_BUNDLE));
  }
  // The official image's user, by the same numbers.
  runOrThrow('chroot', [withNodeDir, 'sh', '-c', 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node']);
  runOrThrow('tar', ['--numeric-owner', ...exclude, '-C', withNodeDir, '-cf', `${tarball}.tmp`, '.']);
  fs.renameSync(`${tarball}.tmp`, tarball);
  fs.rmSync(withNodeDir, { recursive: true, force: true });
}
