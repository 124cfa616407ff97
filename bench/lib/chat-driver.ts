/**
 * The debug chat load generator, run as its own process (node dist/bench/lib/chat-driver.js <plan.json>)
 * so the client's HTTP work does not share the server's event loop, as the HTTP anchors were measured.
 * Each conversation is one keep-alive connection sending its next message when the previous answer
 * arrives. Prints one JSON line: turns, elapsed seconds and the sorted latency percentiles.
 */
import fs from 'node:fs';
import http from 'node:http';

export interface ChatPlan {
  url: string;
  headers: Record<string, string>;
  agentId: string;
  clientEnv: string;
  conversations: string[];
  queries: string[];
  seconds: number;
}

export interface ChatDriverResult {
  turns: number;
  elapsed: number;
  p50: number;
  p99: number;
  failures: number;
  firstFailure?: string;
}

function post(agent: http.Agent, url: URL, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: url.hostname, port: url.port, path, method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function drive(plan: ChatPlan): Promise<ChatDriverResult> {
  const url = new URL(plan.url);
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let q = 0;
  const started = performance.now();
  const deadline = started + plan.seconds * 1000;
  await Promise.all(
    plan.conversations.map(async (conversationId) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const path = `/v1/agents/${plan.agentId}/debug-chat/${conversationId}`;
      while (performance.now() < deadline) {
        const body = JSON.stringify({ clientEnv: plan.clientEnv, message: plan.queries[q++ % plan.queries.length] });
        const t = performance.now();
        const answer = await post(agent, url, path, plan.headers, body);
        if (answer.status !== 200) {
          failures++;
          firstFailure ??= `${answer.status} ${answer.text.slice(0, 300)}`;
        }
        latencies.push(performance.now() - t);
      }
      agent.destroy();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { turns: latencies.length, elapsed, p50: at(0.5), p99: at(0.99), failures, firstFailure };
}

if (require.main === module) {
  const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as ChatPlan;
  drive(plan).then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error) => {
      process.stderr.write(`${(error as Error).stack}\n`);
      process.exit(1);
    },
  );
}
