/**
 * The monitoring files of k8s/components/monitoring, read for the checks: the
 * alert rules (the PrometheusRule's spec, which is a Prometheus rule file), the
 * promtool rule tests, the Grafana dashboard, and the metric names their
 * expressions use. Run directly, it runs promtool on them:
 *
 *   node tests/deploy/dist/src/monitoring.js     (promtool: Debian package prometheus)
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { readRepoFile, repoRoot } from './index.js';

const MONITORING_DIR = 'k8s/components/monitoring';
const PROMETHEUS_RULE_FILE = `${MONITORING_DIR}/prometheus-rule.yaml`;
export const RULE_TESTS_FILE = `${MONITORING_DIR}/alerts.test.yaml`;
const DASHBOARD_FILE = `${MONITORING_DIR}/dashboards/payment-gateway.json`;
/** The name the rule tests give the rule file (their rule_files). */
const RULES_NAME = 'payment-gateway.rules.yaml';

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface RuleGroup {
  name: string;
  rules: AlertRule[];
}

/** The rule groups of the PrometheusRule, as Prometheus reads them from a rule file. */
function ruleGroups(): RuleGroup[] {
  const rule = parse(readRepoFile(PROMETHEUS_RULE_FILE)) as { kind: string; spec: { groups: RuleGroup[] } };
  if (rule.kind !== 'PrometheusRule') throw new Error(`${PROMETHEUS_RULE_FILE} is a ${rule.kind}, not a PrometheusRule`);
  return rule.spec.groups;
}

export function alertRules(): AlertRule[] {
  return ruleGroups().flatMap((group) => group.rules);
}

/** Every PromQL expression of the dashboard's panels, with the panel's title. */
export function dashboardExpressions(): { panel: string; expr: string }[] {
  const dashboard = JSON.parse(readRepoFile(DASHBOARD_FILE)) as { panels: { title: string; targets?: { expr: string }[] }[] };
  return dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));
}

/**
 * The metric names an expression reads: the services' families (gateway_*,
 * and prom-client's process_* and nodejs_*) and Prometheus's own `up`.
 */
export function metricNames(expr: string): string[] {
  const names = new Set<string>();
  for (const match of expr.matchAll(/\b((?:gateway|process|nodejs)_[a-zA-Z0-9_]+|up)\s*(?=\{|\[|\)|$|\s)/g)) names.add(match[1] ?? '');
  return [...names];
}

/** Metrics Prometheus makes itself for every target: no /metrics serves them. */
export const PROMETHEUS_MADE = new Set(['up']);

/**
 * The metric names a Prometheus text exposition serves, histogram and summary
 * series included (`_bucket`, `_count`, `_sum`): every family declared by a
 * `# TYPE` line, whether or not it has a sample yet.
 */
export function exposedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    const typed = /^# TYPE (\S+) (\S+)/.exec(line);
    if (!typed) continue;
    const [, name = '', type] = typed;
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(`${name}${suffix}`);
    if (type === 'summary') for (const suffix of ['_count', '_sum']) names.add(`${name}${suffix}`);
  }
  return names;
}

/** `promtool --version` answers. */
export function promtoolAvailable(): boolean {
  return spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
}

export interface PromtoolRun {
  check: SpawnSyncReturns<string>;
  test: SpawnSyncReturns<string>;
}

/**
 * Writes the PrometheusRule's spec as a rule file beside a copy of the rule
 * tests in a fresh directory, and runs `promtool check rules` and `promtool
 * test rules` there.
 */
export function runPromtool(): PromtoolRun {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-rules-'));
  try {
    writeFileSync(path.join(dir, RULES_NAME), stringify({ groups: ruleGroups() }));
    copyFileSync(path.join(repoRoot, RULE_TESTS_FILE), path.join(dir, 'alerts.test.yaml'));
    const run = (args: string[]) => spawnSync('promtool', args, { cwd: dir, encoding: 'utf8' });
    return { check: run(['check', 'rules', RULES_NAME]), test: run(['test', 'rules', 'alerts.test.yaml']) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!promtoolAvailable()) {
    console.error('promtool is not on PATH: apt-get install prometheus (Debian) gives /usr/bin/promtool');
    process.exit(2);
  }
  const { check, test } = runPromtool();
  for (const run of [check, test]) process.stdout.write(`${run.stdout}${run.stderr}`);
  process.exit(check.status === 0 && test.status === 0 ? 0 : 1);
}
