'use strict';
// Reading what n8n stored (static data, executions) straight from its database, read-only:
// - SQLite under the node that runs jest: the sqlite3 module n8n itself uses (built by install.mjs);
// - SQLite of an n8n on another Node (24): that sqlite3 is compiled for Node 24 and cannot load
//   here, so a Node 24 child reads it with its built-in node:sqlite;
// - Postgres (queue mode, the home's env has DB_TYPE=postgresdb): the `pg` client in n8n's tree.
// SQL is written once with `?` placeholders and double-quoted camelCase columns, valid in both.
const { execFile } = require('node:child_process');
const path = require('node:path');
const { createRequire } = require('node:module');
const { runtime, unwrapHome } = require('./env.cjs');
const { nodeOutput } = require('./cli.cjs');

const sqlite3Mods = new Map();
function querySqliteHere(file, sql, params) {
  const rt = runtime();
  if (!sqlite3Mods.has(rt.dir)) sqlite3Mods.set(rt.dir, createRequire(path.join(rt.dir, 'package.json'))('sqlite3'));
  const sqlite3 = sqlite3Mods.get(rt.dir);
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (e) => e && reject(e));
    db.configure('busyTimeout', 5000);
    db.all(sql, params, (e, rows) => {
      db.close();
      e ? reject(e) : resolve(rows);
    });
  });
}

const CHILD_QUERY = `
const { DatabaseSync } = require('node:sqlite');
const [file, sql, params] = JSON.parse(process.argv[1]);
const db = new DatabaseSync(file, { readOnly: true, timeout: 5000 });
try { process.stdout.write(JSON.stringify(db.prepare(sql).all(...params))); } finally { db.close(); }`;
function querySqliteChild(file, sql, params) {
  return new Promise((resolve, reject) => {
    execFile(
      runtime().nodeBin,
      ['--no-warnings', '-e', CHILD_QUERY, JSON.stringify([file, sql, params])],
      { maxBuffer: 256 * 1024 * 1024 },
      (e, stdout, stderr) =>
        e ? reject(new Error(`sqlite query failed: ${stderr || e.message}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

async function queryPostgres(env, sql, params) {
  const { Client } = createRequire(path.join(runtime().dir, 'node_modules', 'n8n', 'package.json'))('pg');
  const client = new Client({
    host: env.DB_POSTGRESDB_HOST,
    port: Number(env.DB_POSTGRESDB_PORT),
    database: env.DB_POSTGRESDB_DATABASE,
    user: env.DB_POSTGRESDB_USER,
    password: env.DB_POSTGRESDB_PASSWORD,
  });
  await client.connect();
  try {
    let n = 0;
    return (
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows;
  } finally {
    await client.end();
  }
}

/** Rows of a read-only query on the home's database. */
function query(home, sql, params = []) {
  const h = unwrapHome(home);
  if (h.env.DB_TYPE === 'postgresdb') return queryPostgres(h.env, sql, params);
  const file = path.join(h.home, '.n8n', 'database.sqlite');
  return runtime().nodeBin === process.execPath
    ? querySqliteHere(file, sql, params)
    : querySqliteChild(file, sql, params);
}

const parseJson = (v) => (typeof v === 'string' ? JSON.parse(v) : v);

/** Static data of a workflow as saved in the db ({"node:<name>": {...}, "global": {...}}). */
async function getStaticData(home, workflowId) {
  const [row] = await query(home, 'select "staticData" from workflow_entity where id = ?', [workflowId]);
  return row?.staticData ? parseJson(row.staticData) : {};
}

/**
 * Executions of a workflow, oldest first, with their run data. n8n stores each run in
 * execution_data as `flatted` text; the result has the same shape as `execute --rawOutput`'s
 * `data` field.
 */
async function getExecutions(home, workflowId, { afterId = 0 } = {}) {
  const flatted = createRequire(path.join(runtime().dir, 'node_modules', 'n8n', 'package.json'))('flatted');
  const rows = await query(
    home,
    `select e.id, e.mode, e.status, e.finished, e."startedAt", e."stoppedAt", d.data
       from execution_entity e left join execution_data d on d."executionId" = e.id
      where e."workflowId" = ? and e.id > ? order by e.id`,
    [workflowId, afterId],
  );
  return rows.map((r) => {
    const data = r.data ? flatted.parse(r.data) : undefined;
    const run = { data, mode: r.mode, status: r.status };
    const last = data?.resultData?.lastNodeExecuted;
    return {
      id: Number(r.id),
      mode: r.mode,
      status: r.status,
      finished: !!r.finished,
      startedAt: r.startedAt,
      stoppedAt: r.stoppedAt,
      run,
      items: last ? nodeOutput(run, last) : undefined,
    };
  });
}

/** The highest execution id so far (0 if none): what runActive counts new executions after. */
async function maxExecutionId(home) {
  const [row] = await query(home, 'select max(id) as "maxId" from execution_entity');
  return Number(row?.maxId ?? 0);
}

module.exports = { query, getStaticData, getExecutions, maxExecutionId };
