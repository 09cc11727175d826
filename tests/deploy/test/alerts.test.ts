/**
 * The on-call alerts and the dashboard (k8s/components/monitoring): promtool
 * checks the rules and runs their unit tests, and every metric an alert or a
 * dashboard panel reads must be served by a running system's /metrics, so a
 * renamed or dropped metric fails here rather than silently in production.
 */
import assert from 'node:assert/strict';
import { SERVICE_NAMES } from '@gateway/system';
import { ALL_SERVICES, payOnPage, sessionRequest, TestSystem } from '@gateway/testkit';
import { parse } from 'yaml';
import { readRepoFile } from '../src/index.js';
import {
  alertRules,
  dashboardExpressions,
  exposedNames,
  metricNames,
  PROMETHEUS_MADE,
  promtoolAvailable,
  RULE_TESTS_FILE,
  runPromtool,
} from '../src/monitoring.js';

/** What the issue asks an on-call engineer to be told of, and the alerts that tell it. */
const REQUIRED_ALERTS: Record<string, string[]> = {
  'error rate (5xx ratio)': ['PaymentGatewayHighErrorRate'],
  'p99 latency': ['PaymentGatewayHighLatencyP99'],
  'queue depth': ['PaymentGatewayQueueBacklog'],
  'dead letters': ['PaymentGatewayDeadLetters'],
  'outbox age': ['PaymentGatewayOutboxStuck'],
  'webhook failure rate': ['PaymentGatewayWebhookFailureRate'],
  'reconciliation backlog': ['PaymentGatewayReconciliationBacklog', 'PaymentGatewayReconciliationStalled'],
  'manual refunds waiting': ['PaymentGatewayRefundsAwaitingOperator', 'PaymentGatewayRefundWaitingTooLong'],
  // D17: a refusal is a forged or misrouted message, or someone with gateway-admin's broker user but no valid operator key.
  'messages refused (wrong broker user)': ['PaymentGatewayMessagesRefused'],
  'operator commands refused (unsigned, forged, replayed)': ['PaymentGatewayOperatorCommandsRefused'],
};

describe('alert rules (k8s/components/monitoring)', () => {
  const rules = alertRules();

  it('When the rules are read, then each on-call concern has its alert, and every alert has a severity, a summary, a description and a runbook note', () => {
    const names = rules.map((r) => r.alert);
    for (const [concern, alerts] of Object.entries(REQUIRED_ALERTS)) {
      for (const alert of alerts) assert.ok(names.includes(alert), `no alert ${alert} (${concern})`);
    }
    assert.equal(new Set(names).size, names.length, 'two alerts share a name');
    for (const rule of rules) {
      assert.ok(['critical', 'warning'].includes(rule.labels?.severity ?? ''), `${rule.alert}: severity ${rule.labels?.severity}`);
      for (const annotation of ['summary', 'description', 'runbook']) {
        assert.ok((rule.annotations?.[annotation] ?? '').trim().length > 10, `${rule.alert}: no ${annotation}`);
      }
    }
  });

  it('When a pod of any service stops answering, then PaymentGatewayTargetDown watches it: its job list is every service of the description', () => {
    const expr = rules.find((r) => r.alert === 'PaymentGatewayTargetDown')?.expr ?? '';
    const jobs = /up\{job=~"([^"]*)"\}/.exec(expr)?.[1];
    assert.ok(jobs, `no job list in ${expr}`);
    assert.deepEqual(jobs.split('|').sort(), [...SERVICE_NAMES].sort());
  });

  it('When the rule tests are read, then every alert is tested both firing and quiet', () => {
    const tests = (parse(readRepoFile(RULE_TESTS_FILE)) as { tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[] }).tests;
    const checks = tests.flatMap((t) => t.alert_rule_test ?? []);
    for (const { alert } of rules) {
      const mine = checks.filter((c) => c.alertname === alert);
      assert.ok(mine.some((c) => c.exp_alerts.length > 0), `${alert} is never tested firing`);
      assert.ok(mine.some((c) => c.exp_alerts.length === 0), `${alert} is never tested quiet`);
    }
  });

  // No skip: make test (infra/local/run-tests.mjs) and .ci/run install Debian's prometheus package when promtool is missing.
  it('When promtool checks the rules and runs alerts.test.yaml, then both pass', function () {
    this.timeout(60_000);
    assert.ok(promtoolAvailable(), 'promtool is not on PATH: apt-get install prometheus (make test and .ci/run install it)');
    const { check, test } = runPromtool();
    assert.equal(check.status, 0, `promtool check rules:\n${check.stdout}${check.stderr}`);
    assert.match(check.stdout, new RegExp(`SUCCESS: ${rules.length} rules found`));
    assert.equal(test.status, 0, `promtool test rules:\n${test.stdout}${test.stderr}`);
    assert.match(test.stdout, /SUCCESS/);
  });

  it('When an expression is read for metric names, then the services\' families and up are found, label names and functions are not', () => {
    assert.deepEqual(
      metricNames('sum by (service, le) (rate(gateway_http_request_duration_seconds_bucket{route!~"/healthz"}[5m])) / max(up{job="x"}) > gateway_outbox_backlog_rows'),
      ['gateway_http_request_duration_seconds_bucket', 'up', 'gateway_outbox_backlog_rows'],
    );
  });
});

describe('alert and dashboard metrics against a running system', function () {
  this.timeout(240_000);
  let system: TestSystem;
  let served: Set<string>;

  before(async () => {
    system = await TestSystem.start({ readyTimeoutMs: 90_000 });
    // One payment, so that every path the alerts watch has run at least once.
    const merchant = await system.newMerchant();
    const created = await system.api(merchant.testKey).post<{ checkout_url: string }>('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' });
    served = new Set<string>();
    for (const service of ALL_SERVICES) for (const name of exposedNames(await system.metricsOf(service))) served.add(name);
  });
  after(async () => {
    await system?.shutdown();
  });

  it('When the services serve /metrics, then every metric an alert reads is among them', () => {
    const missing: string[] = [];
    for (const rule of alertRules()) {
      const names = metricNames(rule.expr);
      assert.ok(names.length > 0, `${rule.alert}: no metric found in ${rule.expr}`);
      for (const name of names) if (!served.has(name) && !PROMETHEUS_MADE.has(name)) missing.push(`${rule.alert}: ${name}`);
    }
    assert.deepEqual(missing, []);
  });

  it('When the services serve /metrics, then every metric a dashboard panel reads is among them', () => {
    const missing: string[] = [];
    const expressions = dashboardExpressions();
    assert.ok(expressions.length > 20, `only ${expressions.length} panel queries`);
    for (const { panel, expr } of expressions) {
      const names = metricNames(expr);
      assert.ok(names.length > 0, `${panel}: no metric found in ${expr}`);
      for (const name of names) if (!served.has(name) && !PROMETHEUS_MADE.has(name)) missing.push(`${panel}: ${name}`);
    }
    assert.deepEqual(missing, []);
  });

  it('When a metric name is not served, then the check finds it missing (the check can fail)', () => {
    assert.ok(!served.has('gateway_http_requests_totals'));
    assert.ok(served.has('gateway_http_requests_total') && served.has('gateway_http_request_duration_seconds_bucket'));
  });
});
