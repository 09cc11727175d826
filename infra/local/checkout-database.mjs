// Whether the local database is this checkout's: `make up` keeps its keys in the
// checkout (.local/), and the services that keep secrets (D17) find their data
// keys in the database wrapped under the key-encryption key (KEK) of whoever
// first started them there. A second checkout on the same machine, with a KEK
// of its own, would start them against the first one's database and see them
// fail, one after the other; this check says so before anything starts.
// The database's comment names the keys folder (.local/) of the `make up` that set it up.
import pg from 'pg';

const COMMENT_PREFIX = 'make up: ';

/** `name` quoted as an SQL identifier. */
export function quoteIdent(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * What of `database` does not open with `keks` (the KEKs this run gives the
 * services, as kekId names them): for each secret keeper whose data keys are
 * wrapped under another KEK, its schema and those KEKs' ids; and the keys
 * folder named in the database's comment. Nothing when the database, or its data
 * keys, do not exist yet.
 * @param {string} adminUrl  a superuser URL on any database of the server
 * @param {string} database
 * @param {readonly string[]} schemas  the schemas of the services that keep secrets
 * @param {readonly string[]} keks  the ids of the KEKs the services are given
 * @returns {Promise<{ foreign: { schema: string, kekIds: string[] }[], madeBy: string | undefined }>}
 */
export async function foreignDataKeys(adminUrl, database, schemas, keks) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let madeBy;
  try {
    const found = await admin.query('SELECT shobj_description(oid, $2) AS comment FROM pg_database WHERE datname = $1', [database, 'pg_database']);
    if (found.rowCount === 0) return { foreign: [], madeBy: undefined };
    madeBy = madeByOf(found.rows[0].comment);
  } finally {
    await admin.end();
  }
  const db = new pg.Client({ connectionString: onDatabase(adminUrl, database) });
  await db.connect();
  try {
    const foreign = [];
    for (const schema of schemas) {
      const table = `${quoteIdent(schema)}.data_keys`;
      if ((await db.query('SELECT to_regclass($1) IS NOT NULL AS present', [table])).rows[0].present !== true) continue;
      const { rows } = await db.query(`SELECT DISTINCT kek_id FROM ${table} WHERE NOT (kek_id = ANY($1::text[])) ORDER BY kek_id`, [keks]);
      if (rows.length > 0) foreign.push({ schema, kekIds: rows.map((row) => row.kek_id) });
    }
    return { foreign, madeBy };
  } finally {
    await db.end();
  }
}

/**
 * Names `keysFolder` in the comment of `database` when it has none: the
 * database opened with the keys kept there, so it is theirs to name.
 * @param {string} adminUrl
 * @param {string} database
 * @param {string} keysFolder
 */
export async function nameCheckout(adminUrl, database, keysFolder) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('SELECT shobj_description(oid, $2) AS comment FROM pg_database WHERE datname = $1', [database, 'pg_database']);
    if (found.rowCount === 0 || madeByOf(found.rows[0].comment) !== undefined) return;
    await admin.query(`COMMENT ON DATABASE ${quoteIdent(database)} IS ${admin.escapeLiteral(`${COMMENT_PREFIX}${keysFolder}`)}`);
  } finally {
    await admin.end();
  }
}

function madeByOf(comment) {
  return typeof comment === 'string' && comment.startsWith(COMMENT_PREFIX) ? comment.slice(COMMENT_PREFIX.length) : undefined;
}

/** `adminUrl` on `database` instead of its own. */
export function onDatabase(adminUrl, database) {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
