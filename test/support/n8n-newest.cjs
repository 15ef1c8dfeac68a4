// jest project "n8n-newest" (jest.config.cjs): the real-n8n suites run on the newest supported n8n.
process.env.IGDATA_N8N_VERSION = require('../../scripts/n8n-harness/versions.cjs').NEWEST;
