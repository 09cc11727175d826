/** Writes the RabbitMQ definitions of the whole system: `node write-definitions.js <file> [prefix]`. */
import { writeFileSync } from 'node:fs';
import { definitionsDocument } from '../topology.js';

const [file, prefix = 'gw'] = process.argv.slice(2);
if (!file) {
  console.error('usage: write-definitions <file> [prefix]');
  process.exit(2);
}
writeFileSync(file, `${JSON.stringify(definitionsDocument(prefix), null, 2)}\n`);
