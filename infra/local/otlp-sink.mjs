#!/usr/bin/env node
// An OTLP/HTTP trace collector that takes every export and keeps nothing, to
// measure what tracing costs the services (BENCHMARKS.md):
//
//   node infra/local/otlp-sink.mjs --port 4318 &
//   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 node infra/local/bench.mjs --only create-saturated
//
// On SIGTERM or SIGINT it prints how many export requests it took.
import { parseArgs } from 'node:util';
import { OtlpReceiver } from '@gateway/testkit';

const { values } = parseArgs({ options: { port: { type: 'string', default: '4318' } } });
const sink = await OtlpReceiver.start({ port: Number(values.port), discard: true });
console.error(`otlp sink on ${sink.endpoint()}`);
const stop = async () => {
  console.log(JSON.stringify({ exportRequests: sink.requests }));
  await sink.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
