'use strict';
// The credential ids a suite's workflows name, mapped per home to the ids n8n gave the credentials
// it created over REST (shared.cjs): every import, by REST or by the CLI, names them by n8n's ids.
const { unwrapHome } = require('./env.cjs');

/** home path -> (id a workflow names -> id n8n gave). */
const aliases = new Map();

/** Records that workflows on `home` naming `id` mean the credential n8n stored as `stored`. */
function addAlias(home, id, stored) {
  const key = unwrapHome(home).home;
  if (!aliases.has(key)) aliases.set(key, new Map());
  aliases.get(key).set(id, stored);
}

/** Forgets a home's aliases; resolves to the stored ids they pointed to. */
function dropAliases(home) {
  const key = unwrapHome(home).home;
  const stored = [...(aliases.get(key)?.values() ?? [])];
  aliases.delete(key);
  return stored;
}

/** A workflow whose nodes name this suite's credentials by the ids n8n gave them (unchanged elsewhere). */
function withCredentialAliases(home, workflow) {
  const map = aliases.get(unwrapHome(home).home);
  if (!map?.size || !Array.isArray(workflow.nodes)) return workflow;
  const alias = (c) => (c && map.has(c.id) ? { ...c, id: map.get(c.id) } : c);
  return {
    ...workflow,
    nodes: workflow.nodes.map((n) =>
      n.credentials
        ? { ...n, credentials: Object.fromEntries(Object.entries(n.credentials).map(([t, c]) => [t, alias(c)])) }
        : n,
    ),
  };
}

module.exports = { addAlias, dropAliases, withCredentialAliases };
