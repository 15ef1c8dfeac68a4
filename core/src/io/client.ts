/** A small promise-based client over the generators, for Node scripts, tests and benchmarks. */
import { prepare, request, send, sendAll } from '../call';
import { driveAsync } from '../effects';
import type { PagingCap } from '../page-rule';
import { paginate } from '../paginate';
import type { AsyncIO, Call, ClientConfig } from '../types';
import { fetchIO } from './fetch-io';

export function createClient(config: ClientConfig, io: AsyncIO = fetchIO()) {
  return {
    config,
    call: (endpointId: string, input: Record<string, unknown> = {}) =>
      driveAsync(request(config, endpointId, input), io),
    send: (call: Call) => driveAsync(send(config, call), io),
    sendAll: (calls: Call[]) => driveAsync(sendAll(config, calls), io),
    paginate: (endpointId: string, input: Record<string, unknown>, cap: PagingCap) =>
      driveAsync(paginate(config, prepare(endpointId, input), cap), io),
  };
}
export type Client = ReturnType<typeof createClient>;
