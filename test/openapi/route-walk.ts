import { signBody } from '../../src/sms/sms-signature';
import { AGENT_NUMBER, type FuzzWorld } from '../fuzz/fuzz-fixtures';
import { routeKey, type CatalogRoute } from '../fuzz/route-catalog';
import { routeSeeds, type RouteSeed } from '../fuzz/route-seeds';
import { patient } from '../support/patience';

/**
 * A valid call of every route on a world with one of everything (the fuzz world and what it lacks
 * for some routes to succeed): the OpenAPI answers suite checks each answer against the document,
 * the cluster suite (test/scale-out) makes each call through each of its processes.
 */

/** Writes that destroy fixtures last, deepest first; the clock after them (as the fuzz suite runs them), then the rebuild. */
export function runOrder(routes: CatalogRoute[]): CatalogRoute[] {
  // a rebuild's switch to its new generation briefly leaves the read model unreadable: last of all
  const rank = (r: CatalogRoute) =>
    r.url.endsWith('/rebuild') ? 3 : r.url.includes('/clock/') ? 2 : r.method === 'DELETE' ? 1 : 0;
  return [...routes].sort(
    (a, b) => rank(a) - rank(b) || (rank(a) === 1 ? b.url.split('/').length - a.url.split('/').length : 0),
  );
}

/**
 * A seed that may also name its own path ids (where the world's shared one would not succeed: the
 * merged branch, the outbound call's sid) and its own credentials (a key of another scope).
 */
type AnswerSeed = RouteSeed & { path?: Record<string, string>; headers?: Record<string, string> };

/** Requests the fuzz seeds leave failing (they aim past validation, not at success), made to succeed. */
function seedsFor(ids: Record<string, string>): Record<string, AnswerSeed> {
  const chat = '/v1/:accountId/:projectId/chat';
  const carrier = '/admin/v1/carrier/inbound-calls';
  const hour = 3600_000;
  // the world's branch is merged by the merge route early in the run; these edit a branch left open
  const open = { branchId: ids.openBranchId, topicId: ids.openTopicId, testId: ids.openTestId, toolId: ids.openToolId };
  const tests = '/v1/agents/:agentId/branches/:branchId/tests';
  const tools = '/v1/agents/:agentId/branches/:branchId/tools';
  const seeds = routeSeeds(ids);
  return {
    ...seeds,
    [`POST ${tools}`]: { ...seeds[`POST ${tools}`], path: open },
    [`PATCH ${tools}/:toolId`]: { ...seeds[`PATCH ${tools}/:toolId`], path: open },
    [`DELETE ${tools}/:toolId`]: { path: open },
    'PUT /v1/agents/:agentId/branches/:branchId/settings': {
      ...seeds['PUT /v1/agents/:agentId/branches/:branchId/settings'],
      path: open,
    },
    [`POST ${chat}/create`]: { body: { client_env: 'sandbox', message: 'when do you open' } },
    [`POST ${chat}/respond`]: { body: { conversation_id: ids.chatToRespond, message: 'when do you open' } },
    [`PUT ${chat}/close`]: { body: { conversation_id: ids.chatToClose } },
    'PUT /admin/v1/accounts/:accountId/limits': { body: { concurrent_calls: 50 } },
    [`POST ${carrier}`]: { body: { from: '+15550107777', to: AGENT_NUMBER, utterances: ['when do you open'] } },
    [`GET ${carrier}/:callSid`]: { path: { callSid: ids.inboundCallSid } },
    [`POST ${carrier}/:callSid/hang-up`]: { path: { callSid: ids.inboundCallSid } },
    [`POST ${tests}`]: {
      path: open,
      body: { name: 'asks when it opens', turns: [{ user: 'when do you open', expect: { topic: 'Opening hours' } }] },
    },
    [`PATCH ${tests}/:testId`]: { path: open, body: { name: 'renamed test' } },
    [`DELETE ${tests}/:testId`]: { path: open },
    'DELETE /v1/agents/:agentId/branches/:branchId/knowledge-base/topics/:topicId': { path: open },
    'POST /v1/agents/:agentId/branches/:branchId/knowledge-base/example-queries': {
      path: open,
      // the handed-off chat's user turn ("talk to a human"): its words read as the route reads them
      body: { conversationId: ids.handedOff, turnIndex: 1, topicId: ids.openTopicId },
    },
    'POST /v1/external-events/webhook': {
      body: { event_id: ids.awaitedEvent, status: 'done' },
      query: {
        event_id_location: 'payload',
        event_id_path: 'event_id',
        account_id: ids.accountId,
        project_id: ids.agentId,
      },
    },
    'POST /v1/conversations/dni-reservation': {
      body: { attributes: { shared_id: 'TICKET-1' }, ttl_s: 600, client_env: 'live' },
      headers: { 'x-api-key': ids.dniKey },
    },
    'GET /v1/:accountId/:projectId/conversations/concurrency': {
      query: {
        start_time: new Date(Date.now() - hour).toISOString(),
        end_time: new Date(Date.now() + hour).toISOString(),
      },
    },
    'GET /v1/:accountId/:projectId/handoff_state': { query: { id: ids.handedOff } },
    'POST /admin/v1/read-models/:name/rebuild': { path: { name: 'accounts' } },
    'GET /v1/alert-rules/:ruleId': { path: { ruleId: ids.alertingRuleId } },
  };
}

/**
 * What the fuzz world lacks for some routes to succeed: an open branch with a topic and a test, an
 * inbound call, a DNI pool number and a key that reaches only the agent, a conversation handed off.
 */
export async function addAnswerFixtures(
  world: FuzzWorld,
  record: ((conversationId: string) => Promise<void>) | null,
): Promise<void> {
  const { t, ids } = world;
  const send = async (method: string, path: string, body: unknown, headers = world.headers) => {
    const answer = await fetch(`${t.url}${path}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await answer.json()) as Record<string, string>;
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(json)}`);
    return json;
  };
  const agent = `/v1/agents/${ids.agentId}`;
  // Chat API conversations for the respond and close routes
  for (const name of ['chatToRespond', 'chatToClose']) {
    const started = await fetch(`${t.url}/v1/${world.ids.accountId}/${world.ids.agentId}/chat/create`, {
      method: 'POST',
      headers: { ...world.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ client_env: 'sandbox' }),
    });
    if (started.status !== 201) throw new Error(`chat/create: ${started.status}`);
    world.ids[name] = ((await started.json()) as { conversation_id: string }).conversation_id;
  }
  await send('PUT', `/v1/accounts/${ids.accountId}/agents/${ids.agentId}/data-access`, {
    response_metrics: [],
    show_transcripts: true,
  });
  // a call recording of the world's conversation (no SIP call here): the recording route serves it
  await record?.(ids.conversationId);
  const topic = (name: string, queries: string[], actions: string) => ({
    name,
    content: `${name}.`,
    exampleQueries: { queries },
    actions,
    isActive: true,
  });

  // a handoff topic shipped to sandbox, and a debug-chat conversation that hands off
  const handoff = await send('POST', `${agent}/branches`, { branchName: 'answers-handoff' });
  await send(
    'POST',
    `${agent}/branches/${handoff.branchId}/knowledge-base/topics`,
    topic('Human please', ['talk to a human'], 'handoff destination=desk reason="asked"'),
  );
  await send(
    'POST',
    `${agent}/branches/${handoff.branchId}/knowledge-base/topics`,
    topic('Payment', ['pay my bill'], 'await_external_event name=payment'),
  );
  await send('POST', `${agent}/branches/${handoff.branchId}/merge`, { deploymentMessage: 'handoff topic' });
  // a conversation that awaits an external event (the payment): the webhook route then succeeds
  const paying = await send('POST', `${agent}/debug-chat`, { clientEnv: 'sandbox' });
  const turn = (await send('POST', `${agent}/debug-chat/${paying.conversationId}`, {
    clientEnv: 'sandbox',
    message: 'pay my bill',
  })) as unknown as { metadata: { state: { external_event_ids?: Record<string, string> } } };
  ids.awaitedEvent = turn.metadata.state.external_event_ids?.payment ?? 'none awaited';
  const chat = await send('POST', `${agent}/debug-chat`, { clientEnv: 'sandbox' });
  await send('POST', `${agent}/debug-chat/${chat.conversationId}`, {
    clientEnv: 'sandbox',
    message: 'talk to a human',
  });
  ids.handedOff = chat.conversationId;

  const open = await send('POST', `${agent}/branches`, { branchName: 'answers-open' });
  ids.openBranchId = open.branchId;
  ids.openTopicId = (
    await send('POST', `${agent}/branches/${open.branchId}/knowledge-base/topics`, topic('Parking', ['parking'], ''))
  ).id;
  ids.openTestId = (
    await send('POST', `${agent}/branches/${open.branchId}/tests`, {
      name: 'asks about parking',
      turns: [{ user: 'parking', expect: { topic: 'Parking' } }],
    })
  ).id;
  ids.openToolId = (
    await send('POST', `${agent}/branches/${open.branchId}/tools`, {
      name: 'parking_lookup',
      description: 'Finds a parking space',
      url: 'https://tools.example.com/parking',
      parameters: { type: 'object', properties: { plate: { type: 'string' } } },
    })
  ).id;

  const operator = { 'x-operator-token': t.operatorToken };
  // a rule in the alert state (the debug chats above are calls): its answer is checked against the document too
  ids.alertingRuleId = (
    await send('POST', '/v1/alert-rules', {
      name: 'any call',
      metric: 'call_volume',
      operator: '>',
      threshold_value: 0,
      window_duration: '5m',
    })
  ).id;
  await send('POST', '/admin/v1/alerts/evaluate', {}, operator);
  ids.inboundCallSid = (
    await send(
      'POST',
      '/admin/v1/carrier/inbound-calls',
      { from: '+15550106666', to: AGENT_NUMBER, utterances: ['when do you open'], hang_up: false },
      operator,
    )
  ).call_sid;
  await send(
    'POST',
    `/admin/v1/agents/${ids.agentId}/phone-numbers`,
    { number: '+15550108888', environment: 'live', pool: 'dni' },
    operator,
  );
  ids.dniKey = (
    await send(
      'POST',
      `/admin/v1/accounts/${ids.accountId}/api-keys`,
      {
        name: 'dni',
        agents: [ids.agentId],
        permissions: ['dni'],
        expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
      operator,
    )
  ).key;
}

/** The rebuild the run started has ended and its read model serves again, before anything else calls. */
export async function rebuildFinished(world: FuzzWorld): Promise<void> {
  const deadline = Date.now() + patient(20_000);
  for (;;) {
    const response = await fetch(`${world.t.url}/admin/v1/read-models`, {
      headers: { 'x-operator-token': world.t.operatorToken },
    });
    const status = (await response.json()) as {
      readModels: Array<{ name: string; generation: number | null }>;
      rebuilds: Array<{ name: string; state: string; report: { generation: number } | null }>;
    };
    // a busy member may refuse a call for a moment (503, 429): ask again, within the deadline
    if (!response.ok || !Array.isArray(status.rebuilds)) {
      if (Date.now() > deadline)
        throw new Error(`read models unreadable: ${response.status} ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    // done, and the runner serves from the generation it built (the switch follows within a second)
    const settled = status.rebuilds.every(
      (job) =>
        job.state === 'failed' ||
        (job.state === 'done' &&
          status.readModels.find((r) => r.name === job.name)?.generation === job.report?.generation),
    );
    if (settled) return;
    if (Date.now() > deadline) throw new Error(`the rebuild did not settle: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Seen {
  route: string;
  status: number;
  contentType: string | null;
  text: string;
}

/** A valid call of `route` on the app at `base` (the world's own by default: a cluster calls its other members). */
export async function call(
  world: FuzzWorld,
  route: CatalogRoute,
  headers: Record<string, string>,
  base = world.t.url,
): Promise<Seen & { url: string }> {
  const seed = seedsFor(world.ids)[routeKey(route.method, route.url)] ?? {};
  const ids = { ...world.ids, ...seed.path };
  const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(ids[name]));
  const query = new URLSearchParams(seed.query ?? {}).toString();
  const url = `${base}${path}${query ? `?${query}` : ''}`;
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const body = hasBody ? JSON.stringify(seed.body ?? {}) : undefined;
  // a route's own credentials replace the caller's key, never stand in for a call without credentials
  const sent: Record<string, string> = { ...headers, ...(headers['x-api-key'] ? seed.headers : {}) };
  if (body !== undefined) {
    sent['content-type'] = 'application/json';
    sent['x-signature'] = signBody(world.smsWebhookSecret, Buffer.from(body));
  }
  const response = await fetch(url, {
    method: route.method,
    headers: sent,
    body,
    signal: AbortSignal.timeout(patient(10_000)),
  });
  return {
    url,
    route: routeKey(route.method, route.url),
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  };
}
