/**
 * `npm run sandbox`: start the sandbox on PORT (default 4010) and print how to use it.
 * Environment: PORT, IGDATA_LISTEN (where to listen and the names to answer to: scripts/lib/listen.ts;
 * never HOST, which some dev containers set to 0.0.0.0 for their own tools), SANDBOX_SEED,
 * SANDBOX_DEMO_KEY, SANDBOX_LATENCY_MS, SANDBOX_FAULT_RATE, SANDBOX_FAULT_STATUS, SANDBOX_SLOW_MS, SANDBOX_MEDIA_TTL_SECONDS. This file starts a server when
 * loaded; import server.ts for the library.
 */
import { isWildcard, LISTEN_ENV } from '../lib/listen';
import { startSandbox } from './server';

export async function main(env: Record<string, string | undefined> = process.env): Promise<void> {
  const port = env.PORT ? Number(env.PORT) : 4010;
  const sandbox = await startSandbox({ port, quiet: true, env });
  const { url, demoKey } = sandbox;
  const lines = [
    `IG Data sandbox (seed ${sandbox.seed}) listening on ${url}${isWildcard(sandbox.address) ? ` and every other address of this machine (${LISTEN_ENV})` : ''}`,
    ...(env.HOST && !env[LISTEN_ENV]
      ? [
          `(HOST=${env.HOST} is not read: the sandbox listens on this machine only; ${LISTEN_ENV} names another address)`,
        ]
      : []),
    `Demo API key (1,000,000 credits): ${demoKey}`,
    `OpenAPI document: ${url}/openapi.json    Stats: ${url}/_sandbox/stats    Test targets: ${url}/_sandbox/fixtures`,
    `MCP server (Streamable HTTP, the same key as a bearer token): ${sandbox.mcpUrl}`,
    `MCP client config: ${JSON.stringify({ mcpServers: { 'igdata-sandbox': { type: 'http', url: sandbox.mcpUrl, headers: { Authorization: `Bearer ${demoKey}` } } } })}`,
    '',
    'Try:',
    `  curl -s -H "Authorization: Bearer ${demoKey}" "${url}/v1/profile?handle=nasa"`,
    `  curl -s -H "x-api-key: ${demoKey}" "${url}/v1/insights/profile/engagement?handle=nasa&posts=12"`,
    `  curl -s -H "Authorization: Bearer ${demoKey}" "${url}/v1/hashtag/recent?tag=veganrecipes"`,
    `  curl -s -X POST "${url}/_sandbox/keys?balance=50"      # a fresh key with 50 credits`,
    '',
    'Ctrl+C to stop.',
  ];
  console.log(lines.join('\n'));
  const stop = () => {
    sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e) => {
  console.error(`The sandbox could not start: ${(e as Error).message}`);
  process.exit(1);
});
