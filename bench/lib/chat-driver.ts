/**
 * The chat load generator (debug chat, or the Chat API with `plan.chatApi`), run as its own process (node dist/bench/lib/chat-driver.js <plan.json>)
 * so the client's HTTP work does not share the server's event loop, as the HTTP anchors were measured.
 * autocannon, one keep-alive connection per conversation (its URL), each sending its next message
 * when the previous answer arrives. autocannon writes raw HTTP/1.1 and parses only what it must:
 * on this 2-core machine the load generator shares the cores with the server, and Node's own HTTP
 * client spent about three times the CPU per request. Prints one JSON line: turns, elapsed seconds
 * and autocannon's latency percentiles.
 */
import autocannon from 'autocannon';
import fs from 'node:fs';

export interface ChatPlan {
  url: string;
  headers: Record<string, string>;
  agentId: string;
  clientEnv: string;
  conversations: string[];
  queries: string[];
  seconds: number;
  /** drive the Chat API (contract §16) of this account instead of debug chat: one URL, the conversation in the body */
  chatApi?: { accountId: string };
}

export interface ChatDriverResult {
  turns: number;
  elapsed: number;
  p50: number;
  p99: number;
  failures: number;
  firstFailure?: string;
}

function drive(plan: ChatPlan): Promise<ChatDriverResult> {
  let q = 0;
  let firstFailure: string | undefined;
  // connection i posts to urls[i]: each conversation's turns go one after the other, as a user's would
  const urls = plan.conversations.map((id) =>
    plan.chatApi
      ? `${plan.url}/v1/${plan.chatApi.accountId}/${plan.agentId}/chat/respond`
      : `${plan.url}/v1/agents/${plan.agentId}/debug-chat/${id}`,
  );
  let nextConversation = 0;
  const bodyOf = (context: { conversationId?: string }, message: string) => {
    if (!plan.chatApi) return { clientEnv: plan.clientEnv, message };
    // autocannon's context is per connection: each keeps one conversation, turn after turn
    context.conversationId ??= plan.conversations[nextConversation++ % plan.conversations.length];
    return { conversation_id: context.conversationId, message };
  };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: urls,
        method: 'POST',
        connections: urls.length,
        pipelining: 1,
        duration: plan.seconds,
        headers: { ...plan.headers, 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request: Record<string, unknown>, context: { conversationId?: string }) => ({
              ...request,
              body: JSON.stringify(bodyOf(context, plan.queries[q++ % plan.queries.length])),
            }),
            onResponse: (status: number, body: string) => {
              if (status !== 200) firstFailure ??= `${status} ${String(body).slice(0, 300)}`;
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          turns: result['2xx'] + result.non2xx,
          elapsed: result.duration,
          p50: result.latency.p50,
          p99: result.latency.p99,
          failures: result.non2xx + result.errors + result.timeouts,
          firstFailure,
        });
      },
    );
  });
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
