/**
 * A small deterministic OpenAI-compatible chat model for real-n8n tests: n8n's OpenAI Chat Model
 * node, its credential's Base URL pointed here, plays an AI agent's model without a network.
 *
 * The script is in the conversation itself, so one stub serves any number of agents at once: the
 * first user message holds `SCRIPT: {"turns": [[args, ...], ...]}`. Turn k (k = the assistant
 * turns with tool calls so far) calls the request's first tool once per `args` (several in one turn
 * are parallel tool calls); after the last turn the answer is `TOOL RESULTS: ` and the JSON list of
 * every tool message's content, in order, so what the tools returned is what the agent outputs.
 * Every request is recorded as it came (`requests`), to read what the model was told.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatMessage {
  role: string;
  content?: string | null | { type: string; text?: string }[];
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
export interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages: ChatMessage[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: Record<string, any> } }[];
}
export interface ModelStub {
  /** Base URL for the openAiApi credential's `url` (ends in /v1, as OpenAI's does). */
  url: string;
  requests: { path: string; authorization?: string; body: ChatRequest }[];
  close(): Promise<void>;
}

const SCRIPT = /SCRIPT:\s*(\{.*\})\s*$/s;

export const textOf = (content: ChatMessage['content']): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((c) => c.text ?? '').join('') : '';

/** The reply to one request: the next turn's tool calls, or the final answer. */
export function reply(body: ChatRequest): ChatMessage {
  const user = body.messages.find((m) => m.role === 'user');
  const script = SCRIPT.exec(textOf(user?.content));
  const turns: Record<string, unknown>[][] = script ? JSON.parse(script[1]).turns : [];
  const done = body.messages.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
  const tool = body.tools?.[0]?.function.name;
  if (done < turns.length && tool) {
    return {
      role: 'assistant',
      content: null,
      tool_calls: turns[done].map((args, i) => ({
        id: `call_${done}_${i}`,
        type: 'function',
        function: { name: tool, arguments: JSON.stringify(args) },
      })),
    };
  }
  const results = body.messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content));
  return { role: 'assistant', content: `TOOL RESULTS: ${JSON.stringify(results)}` };
}

// A fixed `created`: the stub never reads the clock.
const completion = (message: ChatMessage) => ({
  id: 'chatcmpl-stub',
  object: 'chat.completion',
  created: 0,
  model: 'stub-model',
  choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

/** The same reply as server-sent events, for a client that asks to stream. */
function chunks(message: ChatMessage): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-stub',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'stub-model',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  const delta = message.tool_calls
    ? { role: 'assistant', tool_calls: message.tool_calls.map((c, index) => ({ index, ...c })) }
    : { role: 'assistant', content: message.content };
  return chunk(delta, null) + chunk({}, message.tool_calls ? 'tool_calls' : 'stop') + 'data: [DONE]\n\n';
}

export async function startModelStub(): Promise<ModelStub> {
  const requests: ModelStub['requests'] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: `the model stub serves POST /v1/chat/completions, not ${req.url}` } }),
        );
        return;
      }
      const body = JSON.parse(raw) as ChatRequest;
      requests.push({ path: req.url, authorization: req.headers.authorization, body });
      const message = reply(body);
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(chunks(message));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion(message)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
