/**
 * Helpers for the checks of the deployment files: the repository root, the
 * rendering of a kustomize overlay (`kubectl kustomize`), and validation of a
 * Kubernetes object against its API schema (kubernetes-models). The services
 * themselves, their ports and schemas are @gateway/system's description.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseAllDocuments, parse } from 'yaml';

/** The repository root (this file is tests/deploy/dist/src/index.js once built). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/**
 * The public services: reachable from outside their namespace through the
 * ingress controller alone (D29: never from anywhere, so that what their
 * X-Forwarded-For says was written by our ingress).
 */
export const PUBLIC_SERVICES = ['api-gateway', 'checkout', 'dashboard'];

/** A Kubernetes object as rendered: loosely typed, read with the helpers below. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}

export function readRepoFile(relative: string): string {
  return readFileSync(path.join(repoRoot, relative), 'utf8');
}

/** Parses a YAML file of the repository (merge keys on, as docker compose reads them). */
export function readYaml(relative: string): unknown {
  return parse(readRepoFile(relative), { merge: true });
}

/** `kubectl kustomize <dir>`, parsed; throws with kubectl's message when it fails. */
export function renderKustomization(relativeDir: string): K8sObject[] {
  const result = spawnSync('kubectl', ['kustomize', path.join(repoRoot, relativeDir)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`kubectl kustomize ${relativeDir}: ${result.error.message} (is kubectl installed? infra/local/run-tests.mjs installs it)`);
  if (result.status !== 0) throw new Error(`kubectl kustomize ${relativeDir} exited ${result.status}: ${result.stderr}`);
  return parseAllDocuments(result.stdout).map((doc) => {
    if (doc.errors.length > 0) throw doc.errors[0];
    return doc.toJS() as K8sObject;
  }).filter((object) => object !== null);
}

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: unknown) => Validatable;

/**
 * Validates `object` against the schema of its apiVersion and kind with the
 * kubernetes-models class of that kind (@kubernetes-models/prometheus-operator
 * for monitoring.coreos.com); throws when the object is invalid, and
 * when no class exists for it (an unknown kind is a failure, never a skip).
 */
export async function validateObject(object: K8sObject): Promise<void> {
  if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
    throw new Error(`an object without apiVersion/kind: ${JSON.stringify(object).slice(0, 200)}`);
  }
  // The Prometheus Operator's kinds (ServiceMonitor, PrometheusRule) have their schemas in a package of their own.
  const schemas = object.apiVersion.startsWith('monitoring.coreos.com/') ? '@kubernetes-models/prometheus-operator' : 'kubernetes-models';
  let module: Record<string, unknown>;
  try {
    module = (await import(`${schemas}/${object.apiVersion}`)) as Record<string, unknown>;
  } catch {
    throw new Error(`no schema for apiVersion ${object.apiVersion} (${object.kind} ${object.metadata?.name})`);
  }
  const Model = module[object.kind] as ModelClass | undefined;
  if (typeof Model !== 'function') throw new Error(`no schema for ${object.apiVersion} ${object.kind} (${object.metadata?.name})`);
  new Model(object).validate();
}

/** The objects of one kind, by name. */
export function byKind(objects: readonly K8sObject[], kind: string): Map<string, K8sObject> {
  return new Map(objects.filter((o) => o.kind === kind).map((o) => [o.metadata.name, o]));
}

/** The environment of each container of `make images`' smoke run (infra/images/smoke.mjs's containerEnvironments) for `run`. */
export async function smokeEnvironments(run: Record<string, unknown>): Promise<Record<string, Record<string, string>>> {
  const smoke = (await import(pathToFileURL(path.join(repoRoot, 'infra', 'images', 'smoke.mjs')).href)) as {
    containerEnvironments(run: Record<string, unknown>): Promise<Record<string, Record<string, string>>>;
  };
  return smoke.containerEnvironments(run);
}
